#!/usr/bin/env bash
# grading/make_student_release.sh DEST: the students' copy of the course, without the reference
# answers (they come compiled, in each exercise's prebuilt/); grading/README.md "The student
# release" explains what it withholds and why; --help lists the options.
# The work is in grading/pmpp_grading/release/ (Python 3.8+, standard library).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
    echo "make_student_release.sh: needs Python 3.8 or newer as '$python' (set PYTHON=...)" >&2
    exit 2
fi
export PATH=${CUDA_PATH:-/usr/local/cuda}/bin:$PATH
export PYTHONDONTWRITEBYTECODE=1
exec "$python" -c 'import sys; sys.path.insert(0, sys.argv[1]); from pmpp_grading.release import main; sys.exit(main(sys.argv[2:]))' \
    "$here" "$@"
