"""Unit tests of the Blender add-on's link client (integrations/blender/asset_studio/link.py), without Blender.

Run with Debian's python3: ``/usr/bin/python3 -m unittest discover -s test/blender -p 'test_*.py'``
(test/blender/addon.test.ts runs them under ``npm test``). The live tests start real web hosts of the app
(test/blender/web-host-process.ts, with Node 24 from ASSET_STUDIO_NODE or ``node`` on PATH) on temporary
data folders, each with its embedded engine, and talk to them only through the link file they write.
"""

import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "integrations", "blender"))

from asset_studio import link  # noqa: E402  (no bpy: the package imports link.py alone outside Blender)

FIXTURES = os.path.abspath(os.path.join(ROOT, "..", "shared", "fixtures", "real"))
NODE = os.environ.get("ASSET_STUDIO_NODE") or "node"
TOKEN = "t" * 43


def write_link(folder, **fields):
    data = {"url": "http://127.0.0.1:9", "token": TOKEN, "pid": os.getpid(), "version": "0.1.0"}
    data.update(fields)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, link.LINK_FILE_NAME)
    with open(path, "w", encoding="utf-8") as file:
        json.dump(data, file)
    return path


def dead_pid():
    """The id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


class HostProcess:
    """A web host of the app in its own process, on `data_dir`."""

    def __init__(self, data_dir, speed=500):
        self.data_dir = data_dir
        script = os.path.join(ROOT, "test", "blender", "web-host-process.ts")
        self.process = subprocess.Popen([NODE, script, data_dir, str(speed)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the web host did not start: %s" % self.process.stderr.read().decode("utf-8", "replace"))
        started = json.loads(line)
        # The page's token, and the link's own (link.json: new at every start, issue #33).
        self.port, self.token, self.link_token = started["port"], started["token"], started["linkToken"]

    def stop(self):
        """A clean exit (the app closing): it removes its link file."""
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=120)

    def kill(self):
        """A crash: the link file stays behind."""
        self.process.kill()
        self.process.wait(timeout=120)
        self.process.stdin.close()

    def close(self):
        if self.process.poll() is None:
            self.stop()
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()


def image_data_uri(name):
    with open(os.path.join(FIXTURES, "images", name), "rb") as file:
        return "data:image/png;base64," + base64.b64encode(file.read()).decode("ascii")


def wait_for(read, what, timeout=120.0):
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for %s" % what)
        time.sleep(0.2)


class WithTempDir(unittest.TestCase):
    """A test case with a fresh folder, self.tmp, removed afterwards."""

    prefix = "as-link-"

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix=self.prefix)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


class FindingTheLink(WithTempDir):

    def test_default_data_folder_per_platform(self):
        self.assertEqual(link.default_data_dir("linux", {}, "/home/ada"), "/home/ada/.local/share/asset-studio")
        self.assertEqual(link.default_data_dir("linux", {"XDG_DATA_HOME": "/xdg"}, "/home/ada"), "/xdg/asset-studio")
        self.assertEqual(link.default_data_dir("darwin", {}, "/Users/ada"), "/Users/ada/Library/Application Support/Asset Studio")
        self.assertEqual(link.default_data_dir("win32", {"APPDATA": "C:/Users/ada/AppData/Roaming"}, "C:/Users/ada"), os.path.join("C:/Users/ada/AppData/Roaming", "Asset Studio"))

    def test_places_in_order_preference_then_environment_then_default(self):
        env = {"ASSET_STUDIO_DATA_DIR": "/data/env"}
        places = link.link_file_candidates("", env, "linux", "/home/ada")
        self.assertEqual(places, [("/data/env/link.json", "ASSET_STUDIO_DATA_DIR"), ("/home/ada/.local/share/asset-studio/link.json", "the default data folder")])
        self.assertEqual(link.link_file_candidates("/data/pref", env, "linux", "/home/ada"), [("/data/pref/link.json", "the add-on's preferences")])
        self.assertEqual(link.link_file_candidates("/data/pref/link.json", env)[0][0], "/data/pref/link.json")

    def test_finds_the_link_of_the_environment_folder(self):
        write_link(self.tmp)
        found = link.discover("", {"ASSET_STUDIO_DATA_DIR": self.tmp}, "linux", self.tmp)
        self.assertEqual((found.url, found.token, found.port, found.pid), ("http://127.0.0.1:9", TOKEN, 9, os.getpid()))
        self.assertNotIn(TOKEN, repr(found))

    def test_no_link_file_is_app_not_running_naming_where_it_looked(self):
        with self.assertRaises(link.AppNotRunning) as caught:
            link.discover("", {"ASSET_STUDIO_DATA_DIR": self.tmp}, "linux", self.tmp)
        self.assertIn("Asset Studio is not running", str(caught.exception))
        self.assertIn(os.path.join(self.tmp, "link.json"), str(caught.exception))

    def test_a_link_left_by_an_ended_process_is_app_not_running(self):
        pid = dead_pid()
        write_link(self.tmp, pid=pid)
        self.assertFalse(link.pid_alive(pid))
        self.assertTrue(link.pid_alive(os.getpid()))
        with self.assertRaises(link.AppNotRunning) as caught:
            link.discover(self.tmp)
        self.assertIn("has ended", str(caught.exception))
        self.assertIn(str(pid), str(caught.exception))

    def test_a_link_to_anywhere_but_127_0_0_1_is_refused(self):
        for fields in ({"url": "http://example.com:80"}, {"url": "http://127.0.0.1:9/x"}, {"token": ""}, {"pid": "12"}):
            write_link(self.tmp, **fields)
            with self.assertRaises(link.BadLinkFile, msg=str(fields)):
                link.discover(self.tmp)

    def test_nothing_answering_at_the_address_is_app_not_running(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        write_link(self.tmp, url="http://127.0.0.1:%d" % port)
        client = link.Client.connect(self.tmp, timeout=10)
        with self.assertRaises(link.AppNotRunning) as caught:
            client.list_jobs()
        self.assertIn("not answering", str(caught.exception))

    def test_job_states_that_cannot_be_imported(self):
        running = {"id": "job_1", "remoteId": "SESSION_1", "label": "chair", "state": "running", "percent": 40, "rawStatus": "in_progress"}
        with self.assertRaises(link.JobNotFinished) as caught:
            link.finished_job(running)
        self.assertIn("not finished yet", str(caught.exception))
        self.assertIn("40%", str(caught.exception))
        with self.assertRaises(link.JobFailed) as failed:
            link.finished_job(dict(running, state="failed", error="the image has no object"))
        self.assertIn("the image has no object", str(failed.exception))

    def test_choice_of_the_model_and_the_source_mesh(self):
        outputs = [{"kind": k, "state": "complete"} for k in ("obj", "zip", "glb", "usdz")]
        self.assertEqual(link.model_of(outputs)[0]["kind"], "glb")
        self.assertEqual(link.model_of(outputs + [{"kind": "animation", "state": "pending"}])[0]["kind"], "animation")
        self.assertEqual(link.model_of([{"kind": "retopo_obj", "state": "complete"}, {"kind": "retopo_image", "state": "complete"}])[1], "obj")
        self.assertIsNone(link.model_of([{"kind": "image", "state": "complete"}]))
        # An animation's model in the format the app read from its bytes: FBX as the service delivers it.
        self.assertEqual(link.model_of([{"kind": "animation", "state": "complete", "format": "fbx"}])[1], "fbx")
        self.assertEqual(link.model_of([{"kind": "prompt:p1", "state": "complete", "format": "fbx"}])[1], "fbx")
        self.assertEqual(link.model_of([{"kind": "animation", "state": "complete", "format": "glb"}])[1], "glb")
        self.assertEqual(link.model_of([{"kind": "animation", "state": "complete"}])[1], "glb")  # an older app says nothing
        self.assertEqual(link.source_mesh({"result": {"output": {"mesh": {"_id": "ASSET_1"}}}}), "ASSET_1")
        self.assertEqual(link.source_mesh({"result": {"mesh_url_glb": "https://x.test/m.glb?sig=1"}}), "https://x.test/m.glb?sig=1")
        self.assertIsNone(link.source_mesh({"result": {"mesh_url_obj": "https://x.test/m.obj"}}))


class TalkingToARunningApp(unittest.TestCase):
    """Against a real web host (embedded engine) found through its link file."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="as-link-live-")
        cls.data_dir = os.path.join(cls.tmp, "data")
        cls.host = HostProcess(cls.data_dir)
        cls.client = link.Client.connect(cls.data_dir)

    @classmethod
    def tearDownClass(cls):
        cls.host.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def wait_succeeded(self, job_id):
        def read():
            job = self.client.job(job_id)
            if job["state"] == "failed":
                raise AssertionError("the job failed: %s" % job.get("error"))
            return job if job["state"] == "succeeded" else None

        return wait_for(read, "job %s to succeed" % job_id)

    def test_the_link_file_names_this_host_and_is_private(self):
        path = os.path.join(self.data_dir, "link.json")
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
        found = link.discover(self.data_dir)
        self.assertEqual((found.port, found.token, found.pid), (self.host.port, self.host.link_token, self.host.process.pid))
        info = self.client.info()
        self.assertEqual((info["mode"], info["transport"]), ("embedded", "web"))

    def test_a_wrong_token_is_refused(self):
        found = link.discover(self.data_dir)
        wrong = link.Client(link.Link(found.url, "x" * 43, found.pid, found.version, found.path))
        with self.assertRaises(link.TokenRefused) as caught:
            wrong.list_jobs()
        self.assertIn("refused the token", str(caught.exception))

    def test_an_unknown_job_is_not_found(self):
        with self.assertRaises(link.NotFound) as caught:
            self.client.job("SESSION_nothing_like_this")
        self.assertIn("SESSION_nothing_like_this", str(caught.exception))

    def test_an_image_to_3d_job_is_listed_found_by_either_id_and_its_glb_downloaded(self):
        created = self.client.call("create", {"endpoint": "createImageTo3d", "body": {"image_url": image_data_uri("chair.png"), "texture_model": "baked"}, "label": "link test chair"})
        job = self.wait_succeeded(created["job"]["id"])
        self.assertEqual(self.client.job(job["remoteId"])["id"], job["id"])
        listed = self.client.list_jobs("link test chair")
        self.assertEqual([j["id"] for j in listed], [job["id"]])
        folder = os.path.join(self.tmp, "models")
        found, path, fmt = self.client.download_model(job["remoteId"], folder)
        self.assertEqual((found["id"], fmt), (job["id"], "glb"))
        with open(path, "rb") as file:
            self.assertEqual(file.read(4), b"glTF")
        self.assertEqual(os.listdir(folder), [os.path.basename(path)])  # no temp file left
        self.assertEqual(link.source_mesh(found).split("?")[0].rsplit(".", 1)[1], "glb")

    def test_a_file_sent_back_becomes_an_animation_job_with_a_thumbnail_and_clips(self):
        # A rigged character (a mesh with no bones, such as Suzanne, is refused by the engine at upload).
        job = self.client.send_animation_mesh(os.path.join(FIXTURES, "fbx", "maya_kenney_character_7700_binary.fbx"), label="kenney from blender")
        self.assertEqual((job["kind"], job["label"]), ("animation_session", "kenney from blender"))
        done = self.wait_succeeded(job["id"])
        kind, fmt = self.client.model_output(done)
        # FBX, as the service delivers it (the engine does too): the format the app read from the file's bytes.
        self.assertEqual((kind, fmt), ("animation", "fbx"))
        preview = wait_for(lambda: self.client.preview_image(done, os.path.join(self.tmp, "thumbs")), "the thumbnail")
        with open(preview, "rb") as file:
            self.assertEqual(file.read(8), b"\x89PNG\r\n\x1a\n")

    def test_a_mesh_with_no_bones_is_refused_with_the_engines_reason(self):
        # Suzanne, a head with no skeleton: the local engine rigs only a humanoid standing upright, and says why not.
        with self.assertRaises(link.AppRefused) as caught:
            self.client.send_animation_mesh(os.path.join(FIXTURES, "fbx", "blender_282_suzanne_7400_binary.fbx"), label="suzanne from blender")
        self.assertIn("no skeleton and is not a humanoid standing upright", str(caught.exception))

    def test_a_text_to_image_job_has_no_model_to_import(self):
        created = self.client.call("create", {"endpoint": "createTextToImage", "body": {"prompt": "a wooden crate"}})
        job = self.wait_succeeded(created["job"]["id"])
        with self.assertRaises(link.NotFound) as caught:
            self.client.model_output(job)
        self.assertIn("no 3D model", str(caught.exception))

    def test_a_refused_command_carries_the_apps_message(self):
        with self.assertRaises(link.AppRefused) as caught:
            self.client.send_retopology("not a url")
        self.assertEqual(caught.exception.code, "invalid-input")
        self.assertIn("input.mesh", str(caught.exception))


class AnAppThatStops(WithTempDir):
    prefix = "as-link-stop-"

    def test_a_job_still_running_is_not_finished_then_the_app_closing_removes_its_link(self):
        host = HostProcess(self.tmp, speed=1)  # real time: an image-to-3D job runs for minutes
        try:
            client = link.Client.connect(self.tmp)
            created = client.call("create", {"endpoint": "createImageTo3d", "body": {"image_url": image_data_uri("robot.png")}})
            with self.assertRaises(link.JobNotFinished) as caught:
                client.download_model(created["job"]["id"], os.path.join(self.tmp, "models"))
            self.assertIn("not finished yet", str(caught.exception))
            host.stop()
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "link.json")))
            with self.assertRaises(link.AppNotRunning):
                link.discover(self.tmp)
        finally:
            host.close()

    def test_an_app_that_crashed_leaves_a_stale_link_reported_as_not_running(self):
        host = HostProcess(self.tmp)
        try:
            host.kill()
            self.assertTrue(os.path.exists(os.path.join(self.tmp, "link.json")))
            with self.assertRaises(link.AppNotRunning) as caught:
                link.discover(self.tmp)
            self.assertIn("has ended", str(caught.exception))
        finally:
            host.close()


if __name__ == "__main__":
    unittest.main()
