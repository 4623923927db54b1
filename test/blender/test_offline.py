"""Unit tests of the add-on's offline reader (offline.py) and private download folder (folders.py), without
Blender: a data folder made by the CLI (``asset-studio create-3d --wait`` on the embedded engine, Node 24 from
ASSET_STUDIO_NODE or ``node`` on PATH), then the database missing, busy, damaged, newer, and a damaged blob.

Run with Debian's python3 (test/blender/addon.test.ts runs every test_*.py here under ``npm test``).
"""

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "integrations", "blender"))

from asset_studio import folders, link, offline  # noqa: E402  (no bpy: the package imports alone outside Blender)

FIXTURES = os.path.abspath(os.path.join(ROOT, "..", "shared", "fixtures", "real"))
NODE = os.environ.get("ASSET_STUDIO_NODE") or "node"


def cli(data_dir, *args):
    run = subprocess.run(
        [NODE, os.path.join(ROOT, "main", "cli", "main.ts"), "--data-dir", data_dir, "--engine-speed", "500", "--json"] + list(args),
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    if run.returncode != 0:
        raise RuntimeError("asset-studio %s: exit %d\n%s\n%s" % (" ".join(args), run.returncode, run.stdout, run.stderr))
    return json.loads(run.stdout)


def sha256_of(path):
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


class WithATempFolder(unittest.TestCase):
    """Tests sharing one temp folder (cls.tmp, named after `prefix`), made before them and removed after them."""

    prefix = "as-offline-"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix=cls.prefix)
        cls.addClassCleanup(shutil.rmtree, cls.tmp, ignore_errors=True)


class ReadingADataFolderOffline(WithATempFolder):
    """A data folder the CLI made: one finished image-to-3D job with its outputs cached, no app running."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.made = os.path.join(cls.tmp, "made")
        cls.job = cli(cls.made, "--wait", "create-3d", os.path.join(FIXTURES, "images", "chair.png"))["job"]

    def setUp(self):
        self.data = tempfile.mkdtemp(dir=self.tmp)
        shutil.rmtree(self.data)
        shutil.copytree(self.made, self.data)
        self.database = os.path.join(self.data, offline.DATABASE_FILE)
        self.out = tempfile.mkdtemp(dir=self.tmp)

    def library(self):
        found = offline.open_library(self.data)
        self.assertIsNotNone(found)
        return found

    def test_lists_finds_and_copies_the_finished_job_without_writing_the_database(self):
        before = sha256_of(self.database)
        library = self.library()
        self.assertEqual([j["id"] for j in library.list_jobs()], [self.job["id"]])
        self.assertEqual([j["id"] for j in library.list_jobs("chair")], [self.job["id"]])
        self.assertEqual(library.list_jobs("nothing like it"), [])
        self.assertEqual(library.job(self.job["remoteId"])["id"], self.job["id"])
        job, path, fmt = library.download_model(self.job["id"], self.out)
        self.assertEqual((job["state"], fmt), ("succeeded", "glb"))
        with open(path, "rb") as file:
            self.assertEqual(file.read(4), b"glTF")
        self.assertEqual(os.listdir(self.out), [os.path.basename(path)])  # no temp file left
        self.assertEqual(sha256_of(self.database), before)

    def test_one_connection_serves_a_library_s_queries(self):
        opened = []
        connect = offline.sqlite3.connect

        def counting(*args, **kwargs):
            opened.append(args[0])
            return connect(*args, **kwargs)

        offline.sqlite3.connect = counting
        try:
            library = self.library()
            jobs = library.list_jobs()
            library.job(jobs[0]["id"])
            outputs = library.outputs(jobs[0]["remoteId"])
            library.preview_image(jobs[0], self.out, outputs)
            library.download_model(jobs[0]["id"], self.out)
            self.assertEqual(len(opened), 1)
            library.close()
            library.list_jobs()  # a query after close() opens it again
            self.assertEqual(len(opened), 2)
        finally:
            offline.sqlite3.connect = connect

    def test_the_environment_folder_is_read_as_the_link_would_be(self):
        found = offline.open_library("", {"ASSET_STUDIO_DATA_DIR": self.data})
        self.assertEqual(found.data_dir, self.data)
        self.assertIsNone(offline.open_library(os.path.join(self.tmp, "no-such-folder")))

    def test_an_unknown_job_is_not_found_and_sending_needs_the_app(self):
        library = self.library()
        with self.assertRaises(link.NotFound) as caught:
            library.job("SESSION_nothing_like_this")
        self.assertIn("SESSION_nothing_like_this", str(caught.exception))
        with self.assertRaises(link.AppNotRunning) as sent:
            library.send_retopology("https://x.test/m.glb")
        self.assertIn("needs it", str(sent.exception))

    def test_a_newer_schema_is_refused_in_words(self):
        with sqlite3.connect(self.database) as connection:
            connection.execute("PRAGMA user_version = %d" % (offline.SCHEMA_VERSION + 1))
        with self.assertRaises(offline.DatabaseUnreadable) as caught:
            self.library().list_jobs()
        self.assertIn("newer Asset Studio", str(caught.exception))
        self.assertIn("schema %d" % (offline.SCHEMA_VERSION + 1), str(caught.exception))

    def test_a_locked_database_is_busy_in_words(self):
        holder = sqlite3.connect(self.database, isolation_level=None)
        try:
            holder.execute("PRAGMA locking_mode = EXCLUSIVE")
            holder.execute("BEGIN EXCLUSIVE")
            holder.execute("UPDATE settings SET value = value")
            with self.assertRaises(offline.DatabaseUnreadable) as caught:
                self.library().list_jobs()
            self.assertIn("is busy", str(caught.exception))
        finally:
            holder.execute("ROLLBACK")
            holder.close()

    def test_a_file_that_is_no_database_is_refused_in_words(self):
        for name in os.listdir(self.data):
            if name.startswith(offline.DATABASE_FILE + "-"):
                os.remove(os.path.join(self.data, name))
        with open(self.database, "wb") as file:
            file.write(b"not a database at all, " * 100)
        with self.assertRaises(offline.DatabaseUnreadable) as caught:
            self.library().list_jobs()
        self.assertIn("cannot be read as Asset Studio's database", str(caught.exception))

    def test_a_damaged_blob_is_not_imported(self):
        library = self.library()
        glb = [o for o in library.outputs(self.job["remoteId"]) if o["kind"] == "glb"][0]
        with open(glb["path"], "r+b") as file:
            file.seek(100)
            file.write(b"\0\0\0\0")
        with self.assertRaises(link.LinkError) as caught:
            library.download_model(self.job["id"], self.out)
        self.assertIn("damaged", str(caught.exception))
        self.assertEqual(os.listdir(self.out), [])


class AnAnimatedJobOffline(WithATempFolder):
    """A character animated with a prompt by the CLI: its prompts' clips need the app to be gathered into one model."""

    prefix = "as-offline-anim-"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.data = os.path.join(cls.tmp, "data")
        cls.session = cli(cls.data, "--wait", "upload", os.path.join(FIXTURES, "fbx", "Male_Casual.fbx"))["job"]
        cls.prompts = cli(cls.data, "--wait", "animate-text", cls.session["remoteId"], "walk")["job"]

    def test_the_prompts_default_asks_for_the_app_and_the_library_is_imported_from_the_cache(self):
        library = offline.open_library(self.data)
        out = os.path.join(self.tmp, "out")
        for clips in (None, ["all"]):
            with self.assertRaises(link.AppNotRunning, msg=str(clips)) as caught:
                library.download_model(self.prompts["id"], out, clips=clips)
            self.assertIn("clips made from your prompts", str(caught.exception))
            self.assertIn("Start Asset Studio", str(caught.exception))
        job, path, fmt = library.download_model(self.prompts["id"], out, clips=["library"])
        self.assertEqual((job["id"], fmt), (self.prompts["id"], "fbx"))  # the session's model, as the engine delivers it
        with open(path, "rb") as file:
            self.assertEqual(file.read(18), b"Kaydara FBX Binary")


@unittest.skipUnless(hasattr(os, "getuid"), "POSIX owners and modes")
class ThePrivateDownloadFolder(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="as-folder-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_made_0700_under_a_name_with_the_user_id(self):
        path = folders.private_folder(self.tmp)
        self.assertEqual(path, os.path.join(self.tmp, "asset-studio-blender-%d" % os.getuid()))
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o700)
        self.assertEqual(folders.private_folder(self.tmp), path)  # used again as it is
        models = folders.subfolder(path, "models")
        self.assertEqual(os.stat(models).st_mode & 0o777, 0o700)

    def test_refused_when_open_to_others_or_a_link(self):
        path = folders.default_folder(self.tmp)
        os.mkdir(path, 0o700)
        os.chmod(path, 0o770)
        with self.assertRaises(folders.UnsafeFolder) as caught:
            folders.private_folder(self.tmp)
        self.assertIn("open to other users", str(caught.exception))
        os.rmdir(path)
        target = os.path.join(self.tmp, "elsewhere")
        os.mkdir(target, 0o700)
        os.symlink(target, path)
        with self.assertRaises(folders.UnsafeFolder) as linked:
            folders.private_folder(self.tmp)
        self.assertIn("link", str(linked.exception))

    @unittest.skipUnless(hasattr(os, "getuid") and os.getuid() == 0, "needs root to give the folder to another user")
    def test_refused_when_another_user_owns_it(self):
        path = folders.default_folder(self.tmp)
        os.mkdir(path, 0o700)
        os.chown(path, 65534, 65534)
        with self.assertRaises(folders.UnsafeFolder) as caught:
            folders.private_folder(self.tmp)
        self.assertIn("belongs to another user (uid 65534)", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
