"""python3 -m pmpp_grading.release DEST [options]: grading/make_student_release.sh's command."""
import sys

from .command import main

sys.exit(main())
