"""The sandbox (pmpp_grading/sandbox.py): as root, one student's code cannot touch another's.

- A batch of three students of the stand-in course, as root: alice (correct), bob (correct, his
  file holds a secret that his harness prints into his logs) and mallory, whose file makes the
  stand-in build and harness try to read bob's submission, bob's working tree, the reports and
  the clean tree, to write into the reports and the clean tree's reference answer, to kill the
  grader, to leave a setsid'd daemon behind and to plant links to bob's files among her
  pictures (fake_course/common/fake_build.py, attack_...= lines). Every attempt is denied, and
  all three are graded, mallory with her real statuses.
- --no-sandbox as root grades too, and the reports say the sandbox was off.
- The safe copy of what a student's process wrote (no link followed, no FIFO read, no file too
  large), the choice of the sandbox's folder, and clean() (a setsid'd sleeper is killed).
"""
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

from pmpp_grading import sandbox
from pmpp_grading.sandbox import Fence, Sandbox, SandboxError, copy_regular_file
from processes import alive
from test_grading import PASS, Course, load, statuses, write

SECRET = "BOB-SECRET-51c0ffee"
SANITIZE_PART = """
[01_alpha/sanitize]
type = sanitize
points = 1
tools = memcheck
"""


def can_sandbox():
    """Why the sandbox cannot be tried here (None: it can)."""
    if os.geteuid() != 0:
        return "the sandbox needs root"
    if sys.version_info < (3, 9):
        return "the sandbox needs Python 3.9"
    if shutil.which("useradd") is None and not os.path.exists("/usr/sbin/useradd"):
        try:
            pwd.getpwnam("pmpp-grade-0")
        except KeyError:
            return "no useradd to create the sandbox's users"
    return None




def texts_below(folder):
    """(path, bytes) of every regular file below `folder`."""
    for directory, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(directory, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    yield path, f.read()


@unittest.skipIf(can_sandbox(), can_sandbox() or "")
class AStudentAttacksTheOthers(unittest.TestCase):
    """The batch, graded once with the sandbox on two "GPUs"; the tests read what it left."""

    @classmethod
    def setUpClass(cls):
        cls.c = c = Course(sandbox=True)
        # Everything here is open to every user (as a careless instructor's folders would be):
        # only the grader's lock-down and the sandbox may keep mallory out.
        os.chmod(c.tmp, 0o755)
        os.makedirs(c.out, mode=0o755)
        os.chmod(c.out, 0o755)
        cls.sandboxes = os.path.join(c.tmp, "sandboxes")
        os.makedirs(cls.sandboxes, mode=0o755)
        with open(os.path.join(c.repo, "rubric.ini"), "a") as f:
            f.write(SANITIZE_PART)
        subs = os.path.join(c.tmp, "submissions")
        bob_file = os.path.join(subs, "bob", "02_beta", "beta_student.txt")
        base = os.path.join(c.out, "base")
        targets = {
            "read": [bob_file, "{peer}/tree/02_beta/beta_student.txt", "{peer}/home",
                     os.path.join(c.out, "students", "bob", "logs", "02_beta", "correctness.log"),
                     os.path.join(base, "02_beta", "beta_solution.txt")],
            "write": [os.path.join(c.out, "planted.txt"), os.path.join(c.out, "students", "bob", "planted.txt"),
                      "{peer}/tree/02_beta/planted.txt", os.path.join(base, "01_alpha", "build", "alpha_solution"),
                      os.path.join(subs, "bob", "planted.txt")],
            "link": [bob_file, "{peer}/tree/02_beta/beta_student.txt"],
        }
        attacks = "".join(f"attack_{kind}={path}\n" for kind, paths in targets.items() for path in paths)
        attacks += "attack_kill=grader\nattack_daemon=1\n"
        # Bob takes a while (a second a run), so that mallory, graded after alice, runs beside him.
        bob = PASS + "delay=1\n"
        cls.root = c.submissions({
            "alice": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": PASS},
            "bob": {"01_alpha/alpha_student.txt": bob,
                    "02_beta/beta_student.txt": bob + f"# {SECRET}\nsays={SECRET}\n"},
            "mallory": {"01_alpha/alpha_student.txt": PASS + attacks, "02_beta/beta_student.txt": PASS}})
        cls.graded = c.run("--submissions", cls.root, "--gpus", "0,1", "--base", "worktree",
                           "--sandbox-dir", cls.sandboxes, timeout=300)
        cls.docs = {n: load(os.path.join(c.out, "students", n, "grade.json")) for n in ("alice", "bob", "mallory")}
        cls.mallory = dict(texts_below(os.path.join(c.out, "students", "mallory")))
        cls.attack_lines = [l for text in cls.mallory.values() for l in text.decode(errors="replace").splitlines()
                            if l.startswith("attack ")]

    @classmethod
    def tearDownClass(cls):
        cls.c.close()

    def test_the_batch_finishes_and_grades_all_three_mallory_with_her_real_statuses(self):
        self.assertEqual(self.graded.returncode, 0, self.graded.stdout)
        for name, doc in self.docs.items():
            self.assertTrue(doc["complete"], name)
            self.assertEqual({s for s, _ in statuses(doc).values()}, {"passed"}, f"{name}\n{self.graded.stdout}")
        self.assertEqual(load(os.path.join(self.c.out, "students", "mallory", "results.json"))["score"], 21.0)

    def test_every_attack_was_tried_and_denied(self):
        tried = {kind for l in self.attack_lines for kind in ("read", "write", "kill", "daemon", "link")
                 if l.startswith(f"attack {kind} ")}
        self.assertEqual(tried, {"read", "write", "kill", "daemon", "link"}, self.attack_lines)
        for line in self.attack_lines:
            if line.startswith(("attack daemon", "attack link")):
                continue  # starting a process of her own, or planting a link in her own folder, is allowed
            self.assertRegex(line, r": denied \((PermissionError|FileNotFoundError)\)$")
        for kind in ("read", "write", "kill"):
            self.assertTrue(any(l.startswith(f"attack {kind} ") and l.endswith("denied (PermissionError)")
                                for l in self.attack_lines), kind)

    def test_the_grader_was_among_the_processes_she_tried_to_kill(self):
        killed = [l for l in self.attack_lines if l.startswith("attack kill ")]
        self.assertTrue(killed)
        self.assertNotIn("attack kill grader: no process found", killed)

    def test_bob_s_secret_is_nowhere_in_mallory_s_reports(self):
        self.assertTrue(any(SECRET.encode() in t for _, t in texts_below(os.path.join(self.c.out, "students", "bob"))),
                        "bob's own logs quote it (else this test proves nothing)")
        for path, text in self.mallory.items():
            self.assertNotIn(SECRET.encode(), text, path)

    def test_no_planted_file_and_the_reference_answer_is_untouched(self):
        for path in (os.path.join(self.c.out, "planted.txt"), os.path.join(self.c.out, "students", "bob", "planted.txt"),
                     os.path.join(self.root, "bob", "planted.txt")):
            self.assertFalse(os.path.exists(path), path)
        with open(os.path.join(self.c.out, "base", "01_alpha", "build", "alpha_solution")) as f:
            self.assertTrue(f.read().startswith("#!/bin/sh"))

    def test_a_link_to_another_student_s_file_is_not_copied_among_her_pictures(self):
        self.assertTrue(any(l.startswith("attack link ") and "planted as" in l for l in self.attack_lines))
        images = [os.path.basename(p) for p in self.mallory if "/images/" in p]
        self.assertTrue(images, "her pictures were copied")
        self.assertFalse([n for n in images if n.startswith("stolen")], images)
        log = self.mallory[os.path.join(self.c.out, "students", "mallory", "logs", "01_alpha", "correctness.log")]
        self.assertIn(b"[grader] not taken from the sandbox: stolen", log)

    def test_the_reference_runs_from_the_clean_tree(self):
        doc = load(os.path.join(self.c.out, "students", "mallory", "logs", "01_alpha", "performance.reference.json"))
        self.assertEqual(doc["command"][0], os.path.join(self.c.out, "base", "01_alpha", "build", "alpha_solution"))

    def test_no_process_of_a_sandbox_user_is_left_and_the_sandbox_folder_is_removed(self):
        daemons = [int(m.group(1)) for l in self.attack_lines for m in [re.match(r"attack daemon (\d+): started", l)] if m]
        self.assertTrue(daemons)
        self.assertEqual([p for p in daemons if alive(p)], [])
        used = {pwd.getpwnam(d["environment"]["sandbox"].split()[1]).pw_uid for d in self.docs.values()}
        self.assertEqual(sandbox.processes_of(used), [])
        self.assertEqual(os.listdir(self.sandboxes), [])

    def test_the_reports_and_submissions_are_closed_to_the_sandbox_users(self):
        self.assertIn("closed to other users", self.graded.stdout)
        for folder in (self.c.out, self.root):
            self.assertEqual(stat.S_IMODE(os.stat(folder).st_mode) & 0o007, 0, folder)
        report = os.path.join(self.c.out, "students", "alice", "grade.json")
        self.assertEqual(stat.S_IMODE(os.stat(report).st_mode) & 0o077, 0)
        user = pwd.getpwnam(sandbox.USER_PREFIX + "0")
        p = subprocess.run(["/bin/cat", report], user=user.pw_uid, group=user.pw_gid, extra_groups=[], cwd="/",
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("Permission denied", p.stdout)

    def test_the_reports_name_the_sandbox_s_user(self):
        for name, doc in self.docs.items():
            self.assertRegex(doc["environment"]["sandbox"], r"^user pmpp-grade-\d+$", name)
        with open(os.path.join(self.c.out, "students", "alice", "report.txt")) as f:
            self.assertRegex(f.read(), r"; sandbox user pmpp-grade-\d+;")
        with open(os.path.join(self.c.out, "students", "alice", "report.html"), encoding="utf-8") as f:
            self.assertRegex(f.read(), r"<th>sandbox</th><td>user pmpp-grade-\d+</td>")


@unittest.skipIf(os.geteuid() != 0, "--no-sandbox matters as root only")
class NoSandbox(unittest.TestCase):
    def test_no_sandbox_as_root_grades_and_the_reports_say_it_was_off(self):
        c = Course()  # passes --no-sandbox
        try:
            sub = c.submissions({"alice": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": PASS}})
            p = c.run("--submission", os.path.join(sub, "alice"), "--base", "worktree", "--gpus", "0")
            self.assertEqual(p.returncode, 0, p.stdout)
            self.assertIn("warning: --no-sandbox", p.stdout)
            doc = load(os.path.join(c.out, "grade.json"))
            self.assertEqual(doc["environment"]["sandbox"], "off: --no-sandbox")
            self.assertEqual({s for s, _ in statuses(doc).values()}, {"passed"})
            with open(os.path.join(c.out, "report.txt")) as f:
                self.assertIn("; sandbox off: --no-sandbox;", f.read())
        finally:
            c.close()


@unittest.skipIf(can_sandbox(), can_sandbox() or "")
class UntimedPartsSideBySide(unittest.TestCase):
    def test_parts_beside_each_other_in_one_sandbox_are_not_killed_and_its_daemons_are_once_they_end(self):
        # 02's check takes 0.2 s more than 01's, beside it: a part whose end killed every process
        # of the sandbox's user would kill its neighbour (crashed). Each run of alpha's code
        # leaves a setsid'd sleeper, killed once the untimed parts are done.
        c = Course(sandbox=True)
        try:
            os.chmod(c.tmp, 0o755)
            sandboxes = os.path.join(c.tmp, "sandboxes")
            os.makedirs(sandboxes, mode=0o755)
            with open(os.path.join(c.repo, "rubric.ini"), "a") as f:
                f.write(SANITIZE_PART)
            sub = c.submissions({"ada": {"01_alpha/alpha_student.txt": PASS + "attack_daemon=1\n",
                                         "02_beta/beta_student.txt": PASS + "delay=0.2\n"}})
            p = c.run("--submission", os.path.join(sub, "ada"), "--base", "worktree", "--gpus", "0",
                      "--untimed-parallel", "2", "--sandbox-dir", sandboxes, timeout=300)
            self.assertEqual(p.returncode, 0, p.stdout)
            doc = load(os.path.join(c.out, "grade.json"))
            self.assertEqual(doc["environment"]["untimed_slots"], 2)
            self.assertEqual({s for s, _ in statuses(doc).values()}, {"passed"}, p.stdout)
            daemons = [int(m.group(1)) for _, text in texts_below(c.out)
                       for m in re.finditer(rb"attack daemon (\d+): started", text)]
            self.assertTrue(daemons)
            self.assertEqual([d for d in daemons if alive(d)], [])
            uid = pwd.getpwnam(doc["environment"]["sandbox"].split()[1]).pw_uid
            self.assertEqual(sandbox.processes_of({uid}), [])
        finally:
            c.close()


class SafeCopy(unittest.TestCase):
    """What a student's process left is copied back only as a regular file of its own."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.src = os.path.join(self.tmp, "src")
        os.makedirs(self.src)
        self.fd = os.open(self.src, os.O_RDONLY | os.O_DIRECTORY)

    def tearDown(self):
        os.close(self.fd)
        shutil.rmtree(self.tmp)

    def copy(self, name, limit=sandbox.MAX_COPIED_BYTES):
        dest = os.path.join(self.tmp, "copied")
        return copy_regular_file(self.fd, name, dest, os.getuid(), limit), dest

    def test_a_regular_file_is_copied(self):
        write(os.path.join(self.src, "results.json"), "{}\n")
        why, dest = self.copy("results.json")
        self.assertIsNone(why)
        with open(dest) as f:
            self.assertEqual(f.read(), "{}\n")

    def test_a_symbolic_link_is_not_followed(self):
        secret = os.path.join(self.tmp, "another_student_s_file")
        write(secret, SECRET)
        os.symlink(secret, os.path.join(self.src, "results.json"))
        why, dest = self.copy("results.json")
        self.assertEqual(why, "a symbolic link")
        self.assertFalse(os.path.exists(dest))

    def test_a_fifo_is_not_read(self):
        os.mkfifo(os.path.join(self.src, "results.json"))
        t0 = time.monotonic()
        why, dest = self.copy("results.json")  # would block forever if it were read
        self.assertEqual(why, "not a regular file")
        self.assertLess(time.monotonic() - t0, 5)
        self.assertFalse(os.path.exists(dest))

    def test_an_oversize_file_is_refused(self):
        write(os.path.join(self.src, "big.png"), "x" * 1001)
        why, dest = self.copy("big.png", limit=1000)
        self.assertEqual(why, "1001 bytes, more than 1000")
        self.assertFalse(os.path.exists(dest))

    def test_a_hard_link_is_refused(self):
        write(os.path.join(self.src, "a.png"), "x")
        os.link(os.path.join(self.src, "a.png"), os.path.join(self.src, "b.png"))
        self.assertEqual(self.copy("b.png")[0], "a file with 2 links")

    def test_a_folder_replaced_by_a_link_is_not_followed(self):
        root = os.path.join(self.tmp, "root")
        elsewhere = os.path.join(self.tmp, "elsewhere")
        write(os.path.join(elsewhere, "results.json"), SECRET)
        os.makedirs(os.path.join(root, "u", "out"))
        os.symlink(elsewhere, os.path.join(root, "u", "out", "run-1"))
        box = Sandbox("u", os.getuid(), os.getgid(), [], root)
        why = box.collect_file(os.path.join(root, "u", "out", "run-1", "results.json"), os.path.join(self.tmp, "c"))
        self.assertIn("cannot be opened", why)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "c")))
        self.assertEqual(box.collect_folder(os.path.join(root, "u", "out", "run-1"), self.tmp)[0][:19],
                         "run-1/: cannot be o")


class Environment(unittest.TestCase):
    def test_the_student_s_processes_get_their_own_home_and_none_of_the_machine_s_secrets(self):
        box = Sandbox("pmpp-grade-9", 1234, 1234, [44], "/var/tmp/pmpp-sandbox-x")
        env = box.env({"PATH": "/usr/bin", "GITHUB_TOKEN": "t", "AWS_SECRET_ACCESS_KEY": "k", "SSH_AUTH_SOCK": "/s",
                       "CUDA_VISIBLE_DEVICES": "1", "HOME": "/root"})
        self.assertEqual(sorted(set(env) & {"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "SSH_AUTH_SOCK"}), [])
        self.assertEqual((env["PATH"], env["CUDA_VISIBLE_DEVICES"]), ("/usr/bin", "1"))
        self.assertEqual(env["HOME"], "/var/tmp/pmpp-sandbox-x/pmpp-grade-9/home")
        self.assertTrue(env["CUDA_CACHE_PATH"].startswith(env["HOME"] + "/"))
        self.assertEqual(box.popen_arguments(), {"user": 1234, "group": 1234, "extra_groups": [44], "umask": 0o077})


class TheSandboxFolder(unittest.TestCase):
    def test_a_folder_other_users_cannot_pass_is_refused_naming_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            closed = os.path.join(tmp, "closed")
            os.makedirs(os.path.join(closed, "inner"))
            os.chmod(tmp, 0o755)
            os.chmod(closed, 0o700)
            with self.assertRaises(SandboxError) as e:
                sandbox.check_sandbox_parent(os.path.join(closed, "inner"))
            self.assertIn(f"{closed} is mode 0700, not traversable by others", str(e.exception))

    def test_a_folder_anyone_may_replace_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.chmod(tmp, 0o777)
            with self.assertRaises(SandboxError) as e:
                sandbox.check_sandbox_parent(tmp)
            self.assertIn("writable by every user without the sticky bit", str(e.exception))

    def test_without_root_the_sandbox_is_off_and_says_why(self):
        # As another user (or as root, told it is not root: the decision reads the euid only).
        with mock.patch.object(sandbox.os, "geteuid", return_value=os.geteuid() or 1000):
            fence = Fence.decide(False, None, lambda text: None)
        self.assertFalse(fence.enabled)
        self.assertEqual(fence.description(None), "off: the grader is not root")


@unittest.skipIf(can_sandbox(), can_sandbox() or "")
class Clean(unittest.TestCase):
    """One slot's sandbox, taken as a grading run takes it (under its lock)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        os.chmod(self.tmp, 0o755)
        self.fence = Fence(True, parent=self.tmp, say=lambda text: None)
        self.box = self.fence.new_slot()

    def tearDown(self):
        self.fence.close()
        shutil.rmtree(self.tmp)

    def as_user(self, script):
        return subprocess.run(["/bin/sh", "-c", script], cwd=self.box.tree if os.path.isdir(self.box.tree) else "/",
                              env=self.box.env(dict(os.environ)), stdout=subprocess.PIPE, text=True, timeout=30,
                              **self.box.popen_arguments())

    def test_a_setsid_sleeper_of_the_user_is_killed(self):
        p = self.as_user("setsid sleep 600 </dev/null >/dev/null 2>&1 & echo $!")
        pid = int(p.stdout.strip())
        time.sleep(0.2)
        self.assertTrue(alive(pid))
        self.box.clean()
        self.assertFalse(alive(pid))
        self.assertEqual(self.box.processes(), [])

    def test_what_the_user_left_in_tmp_and_in_its_folder_is_removed(self):
        planted = os.path.join("/tmp", f"pmpp-sandbox-test-{os.getpid()}")
        self.as_user(f"touch {planted} $HOME/x $TMPDIR/y")
        self.assertTrue(os.path.exists(planted))
        self.box.clean()
        self.assertFalse(os.path.exists(planted))
        self.assertEqual(os.listdir(self.box.home) + os.listdir(self.box.tmp) + os.listdir(self.box.out), [])

    def test_the_user_s_processes_have_its_groups_only_never_root_s(self):
        groups = [int(g) for g in self.as_user("id -G").stdout.split()]
        self.assertEqual(sorted(groups), sorted({self.box.gid, *self.box.groups}))
        self.assertNotIn(0, groups)
        self.assertEqual(self.as_user("id -u").stdout.strip(), str(self.box.uid))

    def test_the_sandbox_folder_is_removed_at_the_end(self):
        root = self.fence.root
        self.assertEqual(stat.S_IMODE(os.stat(root).st_mode), 0o711)
        self.assertEqual(stat.S_IMODE(os.stat(self.box.folder).st_mode), 0o700)
        self.fence.close()
        self.assertFalse(os.path.exists(root))


if __name__ == "__main__":
    unittest.main()
