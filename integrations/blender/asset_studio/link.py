"""The link to the running Asset Studio app: plain Python (no bpy), so it is unit-tested without Blender.

While it runs, the app (the desktop app or its local web host) writes ``<data dir>/link.json``:
``{"url": "http://127.0.0.1:<port>", "token": "...", "pid": 1234, "version": "0.1.0"}`` (mode 0600).
This client finds that file, checks that its process is alive, and calls the same commands the app's own
page calls (``POST /api/call/<command>``), with the token as ``Authorization: Bearer <token>`` and the Host
header ``127.0.0.1:<port>`` the app requires. It never sees the service's API key: the app holds it and
makes every call to the service itself. Cached outputs are read from ``/cache/<session>/<kind>``, files are
sent through ``/api/upload`` (the path of a file dropped on the app's page).

Every failure is a ``LinkError`` whose text says what is wrong and what to do, for Blender's report area.
"""

import http.client
import json
import os
import re
import socket
import sys
import tempfile
import time
import urllib.parse

from .errors import AppNotRunning, AppRefused, BadLinkFile, JobFailed, JobNotFinished, LinkError, NotFound, TokenRefused  # noqa: F401 (the link's API)
from .jobs import KIND_LABELS, MODEL_KINDS, copied_preview, describe, finished_job, is_animated, kind_label, model_of, safe_name, source_mesh  # noqa: F401

LINK_FILE_NAME = "link.json"
DATA_DIR_ENV = "ASSET_STUDIO_DATA_DIR"


def default_data_dir(platform=None, env=None, home=None):
    """The app's default data folder on this platform (as main/config/data-dir.ts computes it)."""
    platform = sys.platform if platform is None else platform
    env = os.environ if env is None else env
    home = os.path.expanduser("~") if home is None else home
    if platform.startswith("win"):
        return os.path.join(env.get("APPDATA") or os.path.join(home, "AppData", "Roaming"), "Asset Studio")
    if platform == "darwin":
        return os.path.join(home, "Library", "Application Support", "Asset Studio")
    return os.path.join(env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share"), "asset-studio")


def link_file_candidates(preference="", env=None, platform=None, home=None):
    """Where to look, in order, as (link file path, where the place comes from).

    ``preference``: the add-on's setting, a data folder or a link.json file; it wins when set. Then
    ``ASSET_STUDIO_DATA_DIR``, then the platform's default data folder.
    """
    env = os.environ if env is None else env
    places = []
    preference = (preference or "").strip()
    if preference:
        path = os.path.expanduser(preference)
        if not path.endswith(".json"):
            path = os.path.join(path, LINK_FILE_NAME)
        places.append((path, "the add-on's preferences"))
    else:
        from_env = (env.get(DATA_DIR_ENV) or "").strip()
        if from_env:
            places.append((os.path.join(from_env, LINK_FILE_NAME), DATA_DIR_ENV))
        places.append((os.path.join(default_data_dir(platform, env, home), LINK_FILE_NAME), "the default data folder"))
    return places


class Link:
    """The contents of a link file."""

    def __init__(self, url, token, pid, version, path):
        self.url = url
        self.token = token
        self.pid = pid
        self.version = version
        self.path = path
        self.host, port = urllib.parse.urlsplit(url).netloc.rsplit(":", 1)
        self.port = int(port)

    def __repr__(self):  # never the token
        return "Link(url=%r, pid=%r, version=%r, path=%r)" % (self.url, self.pid, self.version, self.path)


_URL = re.compile(r"^http://127\.0\.0\.1:(\d{1,5})$")


def read_link(path):
    """The link in ``path``; BadLinkFile when it is not one (the token is only ever sent to 127.0.0.1)."""
    try:
        with open(path, "r", encoding="utf-8") as file:
            data = json.load(file)
    except FileNotFoundError:
        raise
    except (OSError, ValueError) as error:
        raise BadLinkFile("%s cannot be read as Asset Studio's link (%s). Restart Asset Studio to write it again." % (path, error))
    problems = []
    if not isinstance(data, dict):
        data, problems = {}, ["it is not a JSON object"]
    url, token, pid, version = data.get("url"), data.get("token"), data.get("pid"), data.get("version")
    match = _URL.match(url) if isinstance(url, str) else None
    if not problems and (match is None or not 0 < int(match.group(1)) < 65536):
        problems.append("url must be http://127.0.0.1:<port>")
    if not problems and (not isinstance(token, str) or len(token) < 16):
        problems.append("token is missing")
    if not problems and (not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0):
        problems.append("pid must be a process id")
    if problems:
        raise BadLinkFile("%s is not a valid Asset Studio link: %s. Restart Asset Studio to write it again." % (path, problems[0]))
    return Link(url, token, pid, version if isinstance(version, str) else "", path)


def pid_alive(pid):
    """Is a process with this id running (on this machine)?"""
    if sys.platform.startswith("win"):
        return _windows_pid_alive(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, another user's
    except OSError:
        return False
    return True


def _windows_pid_alive(pid):
    import ctypes

    kernel32 = ctypes.windll.kernel32
    handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        return False
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return False
        return code.value == 259  # STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)


def discover(preference="", env=None, platform=None, home=None):
    """The link of the running app; AppNotRunning (saying where it looked) when there is none."""
    places = link_file_candidates(preference, env, platform, home)
    for path, source in places:
        try:
            link = read_link(path)
        except FileNotFoundError:
            continue
        if not pid_alive(link.pid):
            raise AppNotRunning(
                "Asset Studio is not running: %s (from %s) was left by a process (%d) that has ended. "
                "Start Asset Studio (the app, or npm run web), then press Refresh." % (path, source, link.pid)
            )
        return link
    looked = "; ".join("%s (%s)" % (path, source) for path, source in places)
    raise AppNotRunning(
        "Asset Studio is not running: no link file at %s. Start Asset Studio (the app, or npm run web) on the same "
        "data folder, or set its data folder in the add-on's preferences, then press Refresh." % looked
    )


# ---- the client ------------------------------------------------------------------------------------


def cache_path(session_id, kind):
    """The app's URL path of a cached output (as shared/bridge/web-protocol.ts builds it)."""
    return "/cache/%s/%s" % (urllib.parse.quote(session_id, safe=""), urllib.parse.quote(kind, safe=""))


class Client:
    """Calls the running app's commands over its link."""

    def __init__(self, link, timeout=60.0):
        self.link = link
        self.timeout = timeout

    @classmethod
    def connect(cls, preference="", env=None, timeout=60.0):
        return cls(discover(preference, env), timeout)

    # -- HTTP --

    def _request(self, method, path, body=None, headers=None, stream=False):
        connection = http.client.HTTPConnection(self.link.host, self.link.port, timeout=self.timeout)
        sent = {"Authorization": "Bearer " + self.link.token}
        sent.update(headers or {})
        try:
            # http.client sends Host: 127.0.0.1:<port>, the one the app accepts (no Origin header).
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
        except (ConnectionRefusedError, ConnectionResetError, socket.timeout, OSError) as error:
            connection.close()
            reason = "did not answer in time" if isinstance(error, socket.timeout) else "refused the connection"
            raise AppNotRunning(
                "Asset Studio is not answering at %s (%s; link file %s). If it was closed, start it again; "
                "then press Refresh." % (self.link.url, reason, self.link.path)
            )
        if response.status == 401:
            connection.close()
            raise TokenRefused(
                "Asset Studio refused the token of %s: the file belongs to another launch of the app. "
                "Press Refresh; if this goes on, restart Asset Studio." % self.link.path
            )
        if stream and response.status in (200, 206):
            return connection, response
        try:
            data = response.read()
        finally:
            connection.close()
        if response.status >= 400:
            raise _refusal(response.status, data, path)
        return response.status, data

    def call(self, command, payload=None):
        """Runs one of the app's commands (shared/bridge/contract.ts) and returns its JSON output."""
        body = json.dumps(payload if payload is not None else {}).encode("utf-8")
        path = "/api/call/" + urllib.parse.quote(command, safe=".")
        _, data = self._request("POST", path, body, {"Content-Type": "application/json"})
        return json.loads(data.decode("utf-8")) if data else None

    def upload(self, path, name=None):
        """Sends a local file to the app as a dropped file would be; returns {uploadId, name, size}."""
        name = name or os.path.basename(path)
        size = os.path.getsize(path)
        with open(path, "rb") as file:
            _, data = self._request(
                "POST",
                "/api/upload",
                file,
                {"Content-Length": str(size), "Content-Type": "application/octet-stream", "x-file-name": urllib.parse.quote(name, safe="")},
            )
        return json.loads(data.decode("utf-8"))

    def download(self, session_id, kind, destination):
        """Copies a complete cached output to ``destination`` (written whole, then renamed into place)."""
        connection, response = self._request("GET", cache_path(session_id, kind), stream=True)
        folder = os.path.dirname(os.path.abspath(destination))
        os.makedirs(folder, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=folder, prefix=".part-")
        try:
            with os.fdopen(handle, "wb") as out:
                while True:
                    chunk = response.read(1 << 16)
                    if not chunk:
                        break
                    out.write(chunk)
            os.replace(temp, destination)
        except BaseException:
            if os.path.exists(temp):
                os.remove(temp)
            raise
        finally:
            connection.close()
        return destination

    # -- what the add-on does --

    def info(self):
        return self.call("app.info")

    def list_jobs(self, search="", limit=50):
        payload = {"limit": limit}
        if search.strip():
            payload["search"] = search.strip()
        return self.call("jobs.list", payload)["jobs"]

    def job(self, job_id):
        """A job by its local id (job_...) or its session code (SESSION_...)."""
        job_id = (job_id or "").strip()
        if not job_id:
            raise NotFound("No job given: pick one in the Asset Studio panel, or pass job=\"<local id or session code>\".")
        try:
            return self.call("jobs.get", {"id": job_id})
        except AppRefused as error:
            if error.code == "not-found":
                raise NotFound("Asset Studio has no job \"%s\" (check the id, or the data folder the app uses). Press Refresh to see its jobs." % job_id)
            raise

    def outputs(self, session_id):
        return self.call("cache.outputs", {"sessionId": session_id})["outputs"]

    def model_output(self, job, timeout=300.0, poll=0.5):
        """The job's 3D model in the app's cache: (kind, format), once complete (downloads it first if needed)."""
        finished_job(job)
        session = job.get("remoteId")
        outputs = self.call("cache.fetch", {"jobId": job["id"]})["outputs"]
        deadline = time.monotonic() + timeout
        while True:
            chosen = model_of(outputs)
            if chosen is None:
                raise NotFound("%s has no 3D model to import (%s jobs make %s)." % (describe(job), kind_label(job), "images" if job.get("kind") == "text_to_image" else "no mesh"))
            output, fmt = chosen
            if output["state"] == "complete":
                return output["kind"], fmt
            if output["state"] == "failed":
                raise AppRefused(
                    "The %s of %s could not be downloaded by Asset Studio: %s. Try again (the app refreshes expired links)."
                    % (output["kind"], describe(job), output.get("error") or "no reason given"),
                    "download-failed",
                )
            if time.monotonic() > deadline:
                raise JobNotFinished("The %s of %s is still downloading in Asset Studio. Try again in a moment." % (output["kind"], describe(job)))
            time.sleep(poll)
            outputs = self.outputs(session)

    def download_model(self, job_id, folder, timeout=300.0, clips=None):
        """The job's model copied into ``folder``: (job, path, format) where format is glb, fbx or obj.

        An animated job's model is the app's export of it as one GLB (``export.run`` into ``folder``, not kept as
        the next export's folder) with the clips ``clips`` names (``["library"]``, ``["all"]``, clip names); None:
        the app's default, the user's prompts (every clip when the job has none), as the app and the CLI export.
        """
        job = self.job(job_id)
        kind, fmt = self.model_output(job, timeout)
        if is_animated(kind):
            return job, self.export_animated(job, folder, clips), "glb"
        name = "%s_%s.%s" % (safe_name(job["remoteId"]), safe_name(kind), fmt)
        return job, self.download(job["remoteId"], kind, os.path.join(folder, name)), fmt

    def export_animated(self, job, folder, clips=None):
        """An animated job exported by the app as one GLB with the chosen clips into ``folder``; its path."""
        request = {
            "jobId": job["id"],
            "projectDir": os.path.abspath(folder),
            "engine": "folder",
            "format": "glb",
            "name": safe_name(job["remoteId"])[:64],
            "overwrite": True,
            "remember": False,
        }
        if clips:
            request["clips"] = list(clips)
        result = self.call("export.run", request)
        glbs = [f["path"] for f in result.get("files", []) if f["path"].lower().endswith(".glb")]
        if not glbs:
            raise AppRefused("Asset Studio exported %s without a GLB to import (%s)." % (describe(job), ", ".join(f["path"] for f in result.get("files", [])) or "no files"), "no-glb")
        return glbs[0]

    def preview_image(self, job, folder, outputs=None):
        """The path of the job's preview picture (copied into ``folder`` once), or None when it has none cached."""
        session = job.get("remoteId")
        if not session:
            return None
        if outputs is None:
            outputs = self.outputs(session)
        complete = [o for o in outputs if o.get("state") == "complete"]
        return copied_preview(complete, folder, session, lambda output, path: self.download(session, output["kind"], path))

    def send_animation_mesh(self, path, label=None):
        """Uploads an FBX (or a zip of FBX) as a mesh-animation job; returns the new job."""
        uploaded = self.upload(path)
        created = self.call("create", {"endpoint": "uploadAnimationMesh", "file": {"uploadId": uploaded["uploadId"]}, "label": label or uploaded["name"]})
        return created.get("job") or {"id": created["operationId"], "label": label or uploaded["name"], "state": "queued", "final": False}

    def send_retopology(self, mesh, model="swift", quads=True, label=None):
        """A retopology job of a mesh the service can read: a GLB URL or an ASSET_ id."""
        body = {"type": "retopology", "input": {"mesh": mesh, "model": model, "quads": bool(quads)}}
        created = self.call("create", {"endpoint": "createRetopology", "body": body, "label": label or "Retopology"})
        return created.get("job") or {"id": created["operationId"], "label": label or "Retopology", "state": "queued", "final": False}


def _refusal(status, data, path):
    try:
        body = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        body = None
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return AppRefused(body["message"], str(body.get("code") or "app-error"), status, body.get("issues"))
    text = data.decode("utf-8", "replace").strip()[:300]
    if status == 404:
        return NotFound(text or "Asset Studio has nothing at %s." % path)
    return AppRefused("Asset Studio answered %d to %s: %s" % (status, path, text or "no reason given"), "http-%d" % status, status)

