"""Facts about the app's jobs as the link reads them: labels, whether one can be imported, its model and mesh."""

import os
import re
import urllib.parse

from .errors import JobFailed, JobNotFinished

#: The 3D model of a job, best first: an animation session's model with all its clips (GLB, or FBX as the
#: service delivers it), an image-to-3D mesh
#: (final, refined, preview), a clip, a retopologized mesh (OBJ).
MODEL_KINDS = ("animation", "glb", "polished_glb", "preview_glb")
#: The picture shown for a job in the library, best first.
PREVIEW_KINDS = ("thumbnail", "image", "render", "retopo_image", "spin_0", "spin_1", "spin_2", "spin_3")

KIND_LABELS = {
    "image_to_3d": "Image to 3D",
    "image_to_3d_older": "Image to 3D (steps)",
    "text_to_image": "Text to image",
    "style": "Style",
    "animation_upload": "Animation upload",
    "animation_session": "Animation",
    "animation_prompt": "Text animation",
    "v3_session": "Retopology",
}


def kind_label(job):
    return KIND_LABELS.get(job.get("kind"), job.get("kind") or "job")


def describe(job):
    return "\"%s\" (%s)" % (job.get("label") or job.get("id"), job.get("remoteId") or job.get("id"))


def finished_job(job):
    """Raises JobNotFinished / JobFailed unless the job ended well."""
    state = job.get("state")
    if state == "succeeded":
        return job
    if state in ("failed", "cancelled", "submission_unknown"):
        reason = job.get("error") or job.get("rawStatus") or state
        raise JobFailed("%s did not finish (%s: %s): there is nothing to import." % (describe(job), state, reason))
    percent = job.get("percent")
    progress = " %d%%," % percent if isinstance(percent, (int, float)) else ""
    raise JobNotFinished(
        "%s is not finished yet (%s,%s status %s): wait for it to end, then import it." % (describe(job), state, progress, job.get("rawStatus") or state)
    )


def animated_format(output):
    """GLB or FBX: the format the app read from an animated output's bytes (the service delivers FBX), GLB
    when the app is older and does not say."""
    fmt = output.get("format")
    return fmt if fmt in ("glb", "fbx") else "glb"


def model_of(outputs):
    """The best model among cached outputs: (output, format) or None."""
    by_kind = {o["kind"]: o for o in outputs}
    for kind in MODEL_KINDS:
        if kind in by_kind:
            return by_kind[kind], animated_format(by_kind[kind]) if kind == "animation" else "glb"
    for o in outputs:
        if is_clip(o["kind"]):
            return o, animated_format(o)
    for o in outputs:
        if re.match(r"^retopo_obj(_\d+)?$", o["kind"]):
            return o, "obj"
    return None


def source_mesh(job):
    """What the service can read of a job's mesh for a retopology: its ASSET_ id or its GLB URL; None if none."""
    result = job.get("result") if isinstance(job.get("result"), dict) else {}
    output = result.get("output") if isinstance(result.get("output"), dict) else {}
    mesh = output.get("mesh")
    if isinstance(mesh, dict) and str(mesh.get("_id", "")).startswith("ASSET_"):
        return mesh["_id"]
    for key in ("mesh_url_glb", "mesh_url", "model_url"):
        value = result.get(key)
        if isinstance(value, str) and value.startswith(("http://", "https://")) and urllib.parse.urlsplit(value).path.lower().endswith(".glb"):
            return value
    urls = result.get("model_urls")
    if isinstance(urls, dict) and isinstance(urls.get("glb"), str) and urls["glb"].startswith(("http://", "https://")):
        return urls["glb"]
    return None


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text)[:120] or "output"


def is_clip(kind):
    """A clip of an animated model (prompt:…, library:…), not its USDZ copy."""
    return kind.startswith(("prompt:", "library:")) and not kind.endswith(":usdz")


def is_animated(kind):
    """An animated model's output: the session's animation or a clip."""
    return kind == "animation" or is_clip(kind)


def preview_output(outputs):
    """The output shown as the job's picture (PREVIEW_KINDS, best first), None when it has none."""
    by_kind = {o["kind"]: o for o in outputs}
    return next((by_kind[kind] for kind in PREVIEW_KINDS if kind in by_kind), None)


def preview_path(folder, session, kind):
    """Where the picture of a job's output is copied for the panel (once: it never changes)."""
    return os.path.join(folder, "%s_%s.png" % (safe_name(session), safe_name(kind)))


def copied_preview(outputs, folder, session, copy):
    """The path in ``folder`` of the picture among a session's complete ``outputs`` (preview_output), copied there
    by ``copy(output, path)`` the first time; None when it has none. The app's link downloads it, the offline
    reader copies its blob."""
    output = preview_output(outputs)
    if output is None:
        return None
    path = preview_path(folder, session, output["kind"])
    if not os.path.exists(path):
        copy(output, path)
    return path
