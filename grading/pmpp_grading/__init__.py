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
  cli          the command line of grading/run_all.sh: one tree, one submission, or a batch
  release      grading/make_student_release.sh: the students' copy, reference answers compiled
"""
