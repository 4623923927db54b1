"""The library as the panel shows it: the job list (window-manager properties), the thumbnails
(bpy.utils.previews), the job followed after a send-back, and where downloaded files go."""

import os

import bpy
import bpy.utils.previews
from bpy.props import BoolProperty, CollectionProperty, EnumProperty, FloatProperty, IntProperty, StringProperty

from . import folders, link, offline

ADDON = __package__
_previews = None

#: Which clips of an animated job are imported. PROMPTS asks for none by name: the app applies its one default
#: (main/export/from-job.ts defaultClips: the user's prompts, every clip when the job has none), as its UI and CLI.
CLIP_CHOICES = [
    ("PROMPTS", "Prompts", "The clips of your prompts (every clip when the job has none), as the app and the CLI export"),
    ("LIBRARY", "Library", "The animation library's clips only (Idle, Walk, Run…)"),
    ("ALL", "All", "Your prompts' clips and the library's"),
]
CLIP_NAMES = {"PROMPTS": None, "LIBRARY": ["library"], "ALL": ["all"]}

#: Where a static model's origin goes on import (an animated character keeps its own: its root at the feet).
PIVOT_CHOICES = [
    ("BOTTOM_CENTER", "Bottom centre", "The origin at the bottom centre of the model's box: it stands on the floor at the 3D cursor, as the app's exports to Unity, Unreal and Godot place it"),
    ("AS_IS", "As in the file", "The file's own origin (the service's models have it at the centre of their box: half the model below the floor)"),
]


class AssetStudioJob(bpy.types.PropertyGroup):
    job_id: StringProperty(name="Local id")
    session: StringProperty(name="Session")
    label: StringProperty(name="Label")
    kind: StringProperty(name="Kind")
    state: StringProperty(name="State")
    raw_status: StringProperty(name="Status")
    percent: FloatProperty(name="Percent", default=-1.0)
    final: BoolProperty(name="Finished")
    error: StringProperty(name="Error")
    preview: StringProperty(name="Preview image", subtype="FILE_PATH")


def preferences(context=None):
    context = context or bpy.context
    addon = context.preferences.addons.get(ADDON)
    return addon.preferences if addon is not None else None


def client(context=None):
    """A client of the running app; when it is not running, the data folder's finished jobs read from its
    database and cache (offline.OfflineLibrary: import only). link.AppNotRunning and co. when neither can be had."""
    prefs = preferences(context)
    preference = prefs.data_folder if prefs is not None else ""
    try:
        return link.Client.connect(preference)
    except link.AppNotRunning as not_running:
        found = offline.open_library(preference)
        if found is None:
            raise not_running
        return found


def work_folder(context=None, *parts):
    """Where downloaded models and thumbnails go: the preference's folder, else this user's private folder
    under the temp folder (folders.py: 0700, checked before each use)."""
    prefs = preferences(context)
    if prefs is not None and prefs.download_folder:
        base = bpy.path.abspath(prefs.download_folder)
    else:
        base = folders.private_folder()
    return folders.subfolder(base, *parts)


def previews():
    global _previews
    if _previews is None:
        _previews = bpy.utils.previews.new()
    return _previews


def icon_of(item):
    """The thumbnail's icon id of a job item (0 when it has none)."""
    if not item.preview or not os.path.exists(item.preview):
        return 0
    collection = previews()
    key = item.preview
    if key not in collection:
        try:
            collection.load(key, item.preview, "IMAGE")
        except (RuntimeError, KeyError):
            return 0
    return collection[key].icon_id


def kind_icon(kind):
    return {
        "image_to_3d": "MESH_MONKEY",
        "image_to_3d_older": "MESH_MONKEY",
        "text_to_image": "IMAGE_DATA",
        "style": "BRUSH_DATA",
        "animation_upload": "ARMATURE_DATA",
        "animation_session": "ARMATURE_DATA",
        "animation_prompt": "ACTION",
        "v3_session": "MOD_REMESH",
    }.get(kind, "QUESTION")


def fill(items, job, preview=""):
    """Copies a job view (jobs.get / jobs.list) into a list item."""
    items.job_id = job["id"]
    items.session = job.get("remoteId") or ""
    items.label = job.get("label") or job["id"]
    items.kind = job.get("kind") or ""
    items.state = job.get("state") or ""
    items.raw_status = job.get("rawStatus") or ""
    percent = job.get("percent")
    items.percent = float(percent) if isinstance(percent, (int, float)) else -1.0
    items.final = bool(job.get("final"))
    items.error = job.get("error") or ""
    if preview:
        items.preview = preview


def state_text(item):
    if item.state == "running" and item.percent >= 0:
        return "running %d%%" % item.percent
    return item.state.replace("_", " ")


def redraw():
    for window in getattr(bpy.context.window_manager, "windows", []):
        for area in window.screen.areas:
            if area.type == "VIEW_3D":
                area.tag_redraw()


def register():
    bpy.utils.register_class(AssetStudioJob)
    wm = bpy.types.WindowManager
    wm.asset_studio_jobs = CollectionProperty(type=AssetStudioJob)
    wm.asset_studio_job_index = IntProperty(name="Job", default=0)
    wm.asset_studio_search = StringProperty(name="Search", description="Show the jobs whose label or session holds this text (press Refresh)")
    wm.asset_studio_status = StringProperty(name="Connection")
    wm.asset_studio_followed = CollectionProperty(type=AssetStudioJob)
    wm.asset_studio_clips = EnumProperty(name="Clips", description="An animated job's clips to import, each an action", items=CLIP_CHOICES, default="PROMPTS")
    wm.asset_studio_pivot_bottom = BoolProperty(
        name="Pivot at the bottom centre",
        description="A static model stands on the floor at the 3D cursor (its origin at the bottom centre of its box), as the app's exports to game engines; off: the file's own origin, the centre of its box",
        default=True,
    )


def unregister():
    global _previews
    wm = bpy.types.WindowManager
    for name in ("asset_studio_pivot_bottom", "asset_studio_clips", "asset_studio_followed", "asset_studio_status", "asset_studio_search", "asset_studio_job_index", "asset_studio_jobs"):
        if hasattr(wm, name):
            delattr(wm, name)
    bpy.utils.unregister_class(AssetStudioJob)
    if _previews is not None:
        bpy.utils.previews.remove(_previews)
        _previews = None
