"""The data folder's finished jobs read straight from disk, for when Asset Studio is not running: import only.

The app keeps its jobs in ``<data dir>/asset-studio.db`` (SQLite in WAL mode, main/store/) and their files in
its download cache (``<data dir>/cache`` unless the ``cache`` setting names another folder), each output a
content-addressed blob ``blobs/<aa>/<sha256>`` (main/cache/). This reader opens the database READ-ONLY
(``file:…?mode=ro``: it never writes, migrates or locks it for writing), reads the few columns it needs of the
``jobs``, ``cache_entries`` and ``settings`` tables, and copies a complete blob out after checking its SHA-256.
A database that is missing, locked, damaged or of a newer schema than this add-on knows is a LinkError that
says so and what to do; sending anything to the service needs the app. Plain Python (no bpy).
"""

import hashlib
import json
import os
import re
import sqlite3
import tempfile
import urllib.parse

from .errors import AppNotRunning, LinkError, NotFound
from .jobs import copied_preview, describe, finished_job, is_animated, kind_label, model_of, safe_name
from .link import link_file_candidates

DATABASE_FILE = "asset-studio.db"  # main/store/database.ts DATABASE_FILE
#: The newest schema (PRAGMA user_version) this reader knows: the number of entries of main/store/migrations.ts
#: (5 added jobs.claimed_until, the read leases, which this reader does not use).
SCHEMA_VERSION = 7
_BLOB = re.compile(r"^blobs[/\\]([0-9a-f]{2})[/\\]([0-9a-f]{64})$")
_PROMPT = re.compile(r"^prompt:[^:]+$")


class DatabaseUnreadable(LinkError):
    """The data folder's database cannot be read offline (locked, damaged, newer, not Asset Studio's)."""

    code = "database-unreadable"


def data_folders(preference="", env=None):
    """The data folders to read, in the order the link file is looked for (link.link_file_candidates)."""
    return [(os.path.dirname(path), source) for path, source in link_file_candidates(preference, env)]


def open_library(preference="", env=None):
    """The OfflineLibrary of the first data folder that has a database; None when none has one."""
    for folder, source in data_folders(preference, env):
        if os.path.isfile(os.path.join(folder, DATABASE_FILE)):
            return OfflineLibrary(folder, source)
    return None


def _format_of(path):
    """glb or fbx from a file's first bytes (as shared/file-format.ts reads them), None for anything else."""
    try:
        with open(path, "rb") as file:
            head = file.read(32)
    except OSError:
        return None
    if head.startswith(b"glTF"):
        return "glb"
    if head.startswith(b"Kaydara FBX Binary"):
        return "fbx"
    return None


class OfflineLibrary:
    """The finished jobs of a data folder, read from its database and cache while the app is not running."""

    offline = True

    def __init__(self, data_dir, source="the data folder"):
        self.data_dir = data_dir
        self.source = source
        self.database = os.path.join(data_dir, DATABASE_FILE)
        self._cache_folder = None
        self._connection = None

    # -- the database --

    def _open(self):
        """The library's read-only connection, opened and its schema checked at the first query: one per library
        (a library serves one panel action, a Refresh or an import), not one per query."""
        if self._connection is not None:
            return self._connection
        uri = "file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(self.database))
        connection = sqlite3.connect(uri, uri=True, timeout=2.0)
        try:
            connection.row_factory = sqlite3.Row
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise DatabaseUnreadable(
                    "%s was written by a newer Asset Studio (database schema %d; this add-on reads up to %d), so the add-on "
                    "does not read it offline. Start Asset Studio to import through it, or install the add-on of the same "
                    "version as the app." % (self.database, version, SCHEMA_VERSION)
                )
            if version < 2:
                raise DatabaseUnreadable(
                    "%s has no download cache yet (database schema %d): start Asset Studio once to bring it up to date."
                    % (self.database, version)
                )
        except BaseException:
            connection.close()
            raise
        self._connection = connection
        return connection

    def _query(self, sql, params=()):
        """Rows of one read-only query (as dicts); DatabaseUnreadable in words for every way it can fail."""
        try:
            return [dict(row) for row in self._open().execute(sql, params).fetchall()]
        except sqlite3.Error as error:
            self.close()  # the next query opens it again (a writer's lock may be gone by then)
            raise self._unreadable(error)

    def close(self):
        """Closes the library's connection (also when the library is dropped); a later query opens a new one."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _unreadable(self, error):
        text = str(error)
        if "locked" in text or "busy" in text:
            return DatabaseUnreadable(
                "%s is busy (%s): Asset Studio or its command line is writing it. Try again in a moment, or start "
                "Asset Studio and press Refresh." % (self.database, text)
            )
        return DatabaseUnreadable(
            "%s cannot be read as Asset Studio's database (%s). Start Asset Studio on this data folder (it says what is "
            "wrong with it), or set the right data folder in the add-on's preferences." % (self.database, text)
        )

    def _cache_dir(self):
        """The cache folder the settings name, else the data folder's: read once per library (one Refresh)."""
        if self._cache_folder is None:
            rows = self._query("SELECT value FROM settings WHERE key = 'cache'")
            try:
                configured = json.loads(rows[0]["value"]).get("dir") if rows else None
            except (ValueError, AttributeError):
                configured = None
            self._cache_folder = (
                configured
                if isinstance(configured, str) and configured.strip()
                else os.path.join(self.data_dir, "cache")
            )
        return self._cache_folder

    @staticmethod
    def _view(row):
        try:
            result = json.loads(row["result"]) if row["result"] else None
        except ValueError:
            result = None
        return {
            "id": row["id"],
            "kind": row["kind"],
            "remoteId": row["remote_id"],
            "label": row["name"] or row["label"],
            "state": row["state"],
            "rawStatus": row["raw_status"],
            "percent": row["percent"],
            "final": bool(row["final"]),
            "error": row["error"],
            "result": result,
        }

    _JOB_COLUMNS = "id, kind, remote_id, label, name, state, raw_status, percent, final, error, result"

    # -- what the add-on does (the same methods as link.Client) --

    def info(self):
        return {"version": "", "mode": "offline", "dataDir": self.data_dir}

    def list_jobs(self, search="", limit=50):
        """The finished jobs, newest first; ``search`` in the label, name or session code."""
        sql = "SELECT %s FROM jobs WHERE state = 'succeeded' AND remote_id IS NOT NULL" % self._JOB_COLUMNS
        params = []
        if search.strip():
            pattern = "%" + search.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            sql += " AND (label LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\' OR remote_id LIKE ? ESCAPE '\\')"
            params = [pattern] * 3
        sql += " ORDER BY created_at DESC LIMIT ?"
        return [self._view(row) for row in self._query(sql, params + [int(limit)])]

    def job(self, job_id):
        job_id = (job_id or "").strip()
        if not job_id:
            raise NotFound("No job given: pick one in the Asset Studio panel, or pass job=\"<local id or session code>\".")
        rows = self._query(
            "SELECT %s FROM jobs WHERE id = ? OR remote_id = ? ORDER BY id = ? DESC, created_at ASC LIMIT 1" % self._JOB_COLUMNS,
            (job_id, job_id, job_id),
        )
        if not rows:
            raise NotFound(
                "The data folder %s has no job \"%s\" (Asset Studio is not running: the add-on read its database). "
                "Check the id, or the data folder in the add-on's preferences." % (self.data_dir, job_id)
            )
        return self._view(rows[0])

    def outputs(self, session_id):
        """The session's complete cached outputs: kind, state, path of the blob (checked in place), and for an
        animated model's output its format (GLB or FBX, from its first bytes)."""
        rows = self._query(
            "SELECT kind, state, blob_path, sha256, size FROM cache_entries WHERE session_id = ? AND state = 'complete'",
            (session_id,),
        )
        cache_dir = self._cache_dir()
        outputs = []
        for row in rows:
            match = _BLOB.match(row["blob_path"] or "")
            if match is None or match.group(2) != row["sha256"]:
                continue  # not a blob of the cache's own layout: never read a path the row names elsewhere
            path = os.path.join(cache_dir, "blobs", match.group(1), match.group(2))
            if not os.path.isfile(path):
                continue
            output = {"kind": row["kind"], "state": "complete", "path": path, "sha256": row["sha256"], "size": row["size"]}
            fmt = _format_of(path) if is_animated(row["kind"]) else None  # (read only where model_of asks for it)
            if fmt is not None:
                output["format"] = fmt
            outputs.append(output)
        return sorted(outputs, key=lambda o: o["kind"])

    def copy(self, output, destination):
        """Copies a blob to ``destination`` (whole, then renamed into place) after checking its SHA-256."""
        folder = os.path.dirname(os.path.abspath(destination))
        os.makedirs(folder, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=folder, prefix=".part-")
        digest = hashlib.sha256()
        try:
            with open(output["path"], "rb") as source, os.fdopen(handle, "wb") as out:
                while True:
                    chunk = source.read(1 << 16)
                    if not chunk:
                        break
                    digest.update(chunk)
                    out.write(chunk)
            if digest.hexdigest() != output["sha256"]:
                raise LinkError(
                    "The cached file %s of %s is damaged (its SHA-256 does not match). Start Asset Studio to download it "
                    "again (or run 'asset-studio cache verify')." % (output["path"], output["kind"])
                )
            os.replace(temp, destination)
        except BaseException:
            if os.path.exists(temp):
                os.remove(temp)
            raise
        return destination

    def download_model(self, job_id, folder, clips=None):
        """The job's model copied out of the cache into ``folder``: (job, path, format)."""
        job = finished_job(self.job(job_id))
        outputs = self.outputs(job["remoteId"])
        prompts = [o for o in outputs if _PROMPT.match(o["kind"])]
        if prompts and (not clips or "all" in clips):
            raise AppNotRunning(
                "%s has clips made from your prompts, and Asset Studio gathers them into one model, which it cannot do "
                "while it is not running. Start Asset Studio and import again, or choose the library's clips (the "
                "session's own model, in the cache) to import now." % describe(job)
            )
        chosen = model_of(outputs)
        if chosen is None:
            raise NotFound(
                "%s has no 3D model in the cache of %s (%s jobs make %s; Asset Studio is not running, so nothing can be "
                "downloaded now)." % (describe(job), self.data_dir, kind_label(job), "images" if job.get("kind") == "text_to_image" else "no mesh")
            )
        output, fmt = chosen
        name = "%s_%s.%s" % (safe_name(job["remoteId"]), safe_name(output["kind"]), fmt)
        return job, self.copy(output, os.path.join(folder, name)), fmt

    def preview_image(self, job, folder, outputs=None):
        """The path of the job's preview picture (copied out of the cache into ``folder`` once), or None."""
        session = job.get("remoteId")
        if not session:
            return None
        return copied_preview(outputs if outputs is not None else self.outputs(session), folder, session, self.copy)

    def _needs_app(self, what):
        raise AppNotRunning(
            "Asset Studio is not running: %s needs it (the add-on only reads finished jobs from %s without it). "
            "Start Asset Studio (the app, or npm run web), then try again." % (what, self.data_dir)
        )

    def send_animation_mesh(self, path, label=None):
        self._needs_app("sending a model to animate")

    def send_retopology(self, mesh, model="swift", quads=True, label=None):
        self._needs_app("sending a model for retopology")
