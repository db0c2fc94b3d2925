"""The course's grader: builds each exercise, runs every rubric part of it in its own process
under a timeout, reads the harness's results files (never its printed text), scores them with
the rubric and writes the reports. grading/README.md is the instructors' guide.

Modules:
  rubric       reads and validates grading/rubric.ini
  scoring      classification of a run and the points of a part (the whole scoring logic)
  reports      terminal table, Gradescope results.json, JUnit XML, CSV
  html_report  report.html per student, index.html per batch
  pictures     the harness's --images pictures: PPM to PNG, grouped for the HTML report
  course       the exercise folders and what their Makefiles say (make grading-info)
  tree         the clean tree a submission is graded in, and the overlay of the student's files
  settings     the context of one grading run: Settings, the processes' environment, the machine
  processes    one process under a timeout in its own process group; the stop request (Ctrl-C)
  outputs      what a harness process writes for the grader (results, pictures, sanitizer report)
  builds       an exercise's builds and the forbidden-API check (make forbidden), classified
  runner       one process per rubric part under a timeout; grade_tree grades one student's tree
  untimed      grade_tree's pool of check and sanitizer runs, several at once; a sanitize part
               decided from tools started before its checks ended
  record       the student's record (grade.json): a fresh one, a part's result put in its place
  sanitizer    sanitize parts: compute-sanitizer found, its report read, a tool's run judged
  sandbox      as root: each student's code as an unprivileged user of its own, results copied back
  sandbox_users    the sandbox's users (pmpp-grade-N) and their locks
  safe_copy        reading back what a student's process wrote: no link followed, regular files only
  sandbox_cleanup  what a sandbox's user leaves behind, removed (processes, files, IPC)
  toolchain    make's environment without a calling make's flags, nvcc's release
  session      one run of the grader: the clean tree, one student's tree graded, the working tree
               and one-submission modes
  batch        a folder of submissions: here, one student per GPU, or as a Slurm job array's tasks
  slurm        the Slurm side of a batch: job scripts, sbatch, squeue, the tasks' state files
  errors       UsageError, which run_all.sh prints before exiting 2; SandboxError
  cli          the command line of grading/run_all.sh: its options, and which mode they ask for
  release/     grading/make_student_release.sh: the students' copy, reference answers compiled, and
               checked (no answer to a task in it); its __init__ lists its modules
"""
