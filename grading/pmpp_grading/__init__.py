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
  runner       builds, the forbidden-API check, one process per part under a timeout
  sanitizer    sanitize parts: compute-sanitizer found, its report read, a tool's run judged
  sandbox      as root: each student's code as an unprivileged user of its own, results copied back
  session      one run of the grader: the clean tree, one student's tree graded, the working tree
               and one-submission modes
  batch        a folder of submissions: here, one student per GPU, or as a Slurm job array's tasks
  slurm        the Slurm side of a batch: job scripts, sbatch, squeue, the tasks' state files
  errors       UsageError, which run_all.sh prints before exiting 2
  cli          the command line of grading/run_all.sh: its options, and which mode they ask for
  release      grading/make_student_release.sh: the students' copy, reference answers compiled
"""
