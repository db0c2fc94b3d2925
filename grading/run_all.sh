#!/usr/bin/env bash
# grading/run_all.sh: grade the exercises (grading/README.md is the guide; --help lists the options).
#   grading/run_all.sh                        the working tree as it is
#   grading/run_all.sh --submission DIR       one submission: a clean tree, only the student's files from DIR
#   grading/run_all.sh --submissions DIR      every folder of DIR is a student; one per GPU; resumable
# The orchestration, the scoring and the reports are in grading/pmpp_grading (Python 3.8+, standard library).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
    echo "run_all.sh: needs Python 3.8 or newer as '$python' (set PYTHON=...)" >&2
    exit 2
fi
export PATH=${CUDA_PATH:-/usr/local/cuda}/bin:$PATH
export PYTHONDONTWRITEBYTECODE=1  # nothing written into the course's tree but the reports
exec "$python" -c 'import sys; sys.path.insert(0, sys.argv[1]); from pmpp_grading.cli import main; sys.exit(main(sys.argv[2:]))' \
    "$here" "$@"
