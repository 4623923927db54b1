"""The add-on's operators: refresh the library, import a job, send the selected object back, follow a job.

For scripts: ``bpy.ops.asset_studio.import_job(job="<local id or session code>")``. Every failure is
reported in Blender's report area in words (app not running, token refused, job not finished...); called
from Python, a failed operator raises RuntimeError with that text.
"""

import os
import tempfile

import bpy
from bpy.props import BoolProperty, EnumProperty, StringProperty

from . import library, link

FOLLOW_SECONDS = 3.0


def numpy_compat():
    """Blender 3.4's glTF importer uses numpy.bool, removed from NumPy 1.24 to 1.26: restore it as numpy.bool_.

    Also called by the test scripts that import files into Blender (test/blender/facts_run.py).
    """
    try:
        import numpy
    except ImportError:
        return
    if "bool" not in vars(numpy):  # not hasattr: NumPy 1.24 warns on every look-up of the old alias
        numpy.bool = numpy.bool_


def _fail(operator, error):
    operator.report({"ERROR"}, str(error))
    wm = bpy.context.window_manager
    if isinstance(error, (link.AppNotRunning, link.TokenRefused, link.BadLinkFile)):
        wm.asset_studio_status = str(error)
    return {"CANCELLED"}


# ---- library ---------------------------------------------------------------------------------------


class ASSET_STUDIO_OT_refresh(bpy.types.Operator):
    """Read the job list (and thumbnails) from the running Asset Studio app"""

    bl_idname = "asset_studio.refresh"
    bl_label = "Refresh"

    def execute(self, context):
        wm = context.window_manager
        try:
            client = library.client(context)
            info = client.info()
            jobs = client.list_jobs(wm.asset_studio_search)
            folder = library.work_folder(context, "thumbnails")
            previews = {}
            for job in jobs:
                try:
                    previews[job["id"]] = client.preview_image(job, folder) or ""
                except link.LinkError:
                    previews[job["id"]] = ""  # a missing thumbnail never hides the job
        except (link.LinkError, OSError) as error:
            return _fail(self, error)
        selected = wm.asset_studio_jobs[wm.asset_studio_job_index].job_id if 0 <= wm.asset_studio_job_index < len(wm.asset_studio_jobs) else ""
        wm.asset_studio_jobs.clear()
        for job in jobs:
            library.fill(wm.asset_studio_jobs.add(), job, previews.get(job["id"], ""))
        ids = [job["id"] for job in jobs]
        wm.asset_studio_job_index = ids.index(selected) if selected in ids else 0
        count = "%d job%s" % (len(jobs), "" if len(jobs) == 1 else "s")
        if getattr(client, "offline", False):
            wm.asset_studio_status = "Asset Studio is not running: %s finished, read from %s (import only)" % (count, info.get("dataDir", ""))
        else:
            where = "the embedded engine" if info.get("mode") == "embedded" else "the service"
            wm.asset_studio_status = "Asset Studio %s on %s: %s" % (info.get("version", ""), where, count)
        library.redraw()
        return {"FINISHED"}


# ---- import --------------------------------------------------------------------------------------


def import_model(context, path, fmt):
    """Imports a downloaded GLB or FBX (every animation, or take, as an action) or OBJ; returns the new objects and actions."""
    objects_before = set(bpy.data.objects)
    actions_before = set(bpy.data.actions)
    for obj in context.selected_objects:
        obj.select_set(False)
    if fmt == "glb":
        numpy_compat()
        # The importer converts glTF's Y-up to Blender's Z-up and keeps metres; each animation becomes an action.
        result = bpy.ops.import_scene.gltf(filepath=path)
    elif fmt == "fbx":
        # The service's animations: the importer converts the file's axes and units (to metres), each take an action.
        result = bpy.ops.import_scene.fbx(filepath=path)
    elif hasattr(bpy.ops.wm, "obj_import"):
        result = bpy.ops.wm.obj_import(filepath=path, forward_axis="NEGATIVE_Z", up_axis="Y")
    else:
        result = bpy.ops.import_scene.obj(filepath=path, axis_forward="-Z", axis_up="Y")
    if "FINISHED" not in result:
        raise link.LinkError("Blender could not import %s (the importer reported it: see the Info log)." % path)
    objects = [o for o in bpy.data.objects if o not in objects_before]
    actions = [a for a in bpy.data.actions if a not in actions_before]
    return objects, actions


def place(context, objects, fmt):
    """Puts the imported roots at the 3D cursor, in metres whatever the scene's unit scale.

    Blender's glTF and FBX importers already convert metres to scene units; its OBJ importer does not.
    """
    scale_length = context.scene.unit_settings.scale_length
    factor = 1.0 / scale_length if fmt == "obj" and scale_length > 0 else 1.0
    members = set(objects)
    for obj in objects:
        if obj.parent in members:
            continue
        obj.location = context.scene.cursor.location + obj.location * factor
        obj.scale = obj.scale * factor


def is_static(objects, actions):
    """A model with no armature and no animation: its origin is the importer's to choose (an animated one keeps its rig's)."""
    return not actions and not any(o.type == "ARMATURE" for o in objects)


def pivot_to_bottom_center(context, objects):
    """Moves the geometry of the imported objects so that the bottom centre of their box is at the 3D cursor.

    The service's models have their origin at the centre of their box (its ``pivot_point`` default), so a model
    imported as it is stands half below the floor; the app's exports to Unity, Unreal and Godot move the origin
    to the bottom centre (shared/export-options.ts ``defaultPivot``), and so does this. The objects stay where
    they are (the roots at the cursor): each mesh is shifted in its own space by the world offset, so that a
    hierarchy of objects moves as one. Returns the offset applied, in scene units.
    """
    from mathutils import Matrix, Vector

    context.view_layer.update()  # matrix_world after place()
    meshes = [o for o in objects if o.type == "MESH"]
    corners = [o.matrix_world @ Vector(corner) for o in meshes for corner in o.bound_box]
    if not corners:
        return None
    low = Vector([min(c[i] for c in corners) for i in range(3)])
    high = Vector([max(c[i] for c in corners) for i in range(3)])
    bottom_center = Vector(((low.x + high.x) / 2, (low.y + high.y) / 2, low.z))
    offset = bottom_center - context.scene.cursor.location
    done = set()
    for obj in meshes:
        if obj.data in done:  # an instanced mesh is moved once
            continue
        done.add(obj.data)
        local = obj.matrix_world.inverted().to_3x3() @ offset
        obj.data.transform(Matrix.Translation(-local))
        obj.data.update()
    return offset


class ASSET_STUDIO_OT_import_job(bpy.types.Operator):
    """Import a finished job's model from Asset Studio (GLB with its textures and every animation clip) at the 3D cursor"""

    bl_idname = "asset_studio.import_job"
    bl_label = "Import Job"
    bl_options = {"REGISTER", "UNDO"}

    job: StringProperty(name="Job", description="Local id (job_...) or session code (SESSION_...); empty: the job selected in the panel")
    clips: EnumProperty(
        name="Clips",
        description="An animated job's clips to import, each an action",
        items=library.CLIP_CHOICES,
        default="PROMPTS",
    )
    pivot: EnumProperty(
        name="Pivot",
        description="Where a static model's origin goes (an animated character keeps its own)",
        items=library.PIVOT_CHOICES,
        default="BOTTOM_CENTER",
    )

    def execute(self, context):
        wm = context.window_manager
        job_id = self.job.strip()
        if not job_id and 0 <= wm.asset_studio_job_index < len(wm.asset_studio_jobs):
            job_id = wm.asset_studio_jobs[wm.asset_studio_job_index].job_id
        try:
            client = library.client(context)
            job, path, fmt = client.download_model(job_id, library.work_folder(context, "models"), clips=library.CLIP_NAMES[self.clips])
            objects, actions = import_model(context, path, fmt)
        except (link.LinkError, OSError) as error:
            return _fail(self, error)
        place(context, objects, fmt)
        moved = self.pivot == "BOTTOM_CENTER" and is_static(objects, actions) and pivot_to_bottom_center(context, objects) is not None
        for obj in objects:
            obj["asset_studio_job"] = job["id"]
            obj["asset_studio_session"] = job.get("remoteId") or ""
            obj.select_set(True)
        roots = [o for o in objects if o.parent not in set(objects)]
        if roots:
            context.view_layer.objects.active = roots[0]
        for action in actions:
            action.use_fake_user = True  # every clip is kept when the file is saved, not only the active one
        self.report({"INFO"}, "Imported %s: %d object%s, %d animation clip%s%s" % (
            link.describe(job), len(objects), "" if len(objects) == 1 else "s", len(actions), "" if len(actions) == 1 else "s",
            ", pivot at the bottom centre (standing on the floor)" if moved else ""))
        return {"FINISHED"}


# ---- send back -----------------------------------------------------------------------------------


def _selection_with_armatures(context):
    """The selected meshes and the armatures that deform them (parents and Armature modifiers)."""
    chosen = set()
    for obj in context.selected_objects:
        chosen.add(obj)
        if obj.parent is not None and obj.parent.type == "ARMATURE":
            chosen.add(obj.parent)
        for modifier in getattr(obj, "modifiers", []):
            if modifier.type == "ARMATURE" and modifier.object is not None:
                chosen.add(modifier.object)
        if obj.type == "ARMATURE":
            chosen.update(child for child in obj.children if child.type == "MESH")
    return chosen


def export_fbx(context, path):
    """The selection with its armature as a binary FBX (what the animation upload takes)."""
    chosen = _selection_with_armatures(context)
    for obj in context.view_layer.objects:
        obj.select_set(obj in chosen)
    result = bpy.ops.export_scene.fbx(
        filepath=path, use_selection=True, object_types={"ARMATURE", "MESH"}, add_leaf_bones=False,
        bake_anim=False, path_mode="COPY", embed_textures=True, axis_forward="-Z", axis_up="Y",
    )
    if "FINISHED" not in result:
        raise link.LinkError("Blender could not export the selection as FBX to %s." % path)
    return path


def follow(context, job):
    """Shows `job` in the panel and reads it again every few seconds until it ends."""
    wm = context.window_manager
    wm.asset_studio_followed.clear()
    library.fill(wm.asset_studio_followed.add(), job)
    if not bpy.app.timers.is_registered(_follow_tick):
        bpy.app.timers.register(_follow_tick, first_interval=FOLLOW_SECONDS)


def _follow_tick():
    wm = bpy.context.window_manager
    if len(wm.asset_studio_followed) == 0:
        return None
    item = wm.asset_studio_followed[0]
    try:
        job = library.client().job(item.job_id)
    except link.LinkError as error:
        wm.asset_studio_status = str(error)
        library.redraw()
        return FOLLOW_SECONDS * 4
    library.fill(item, job)
    for listed in wm.asset_studio_jobs:
        if listed.job_id == job["id"]:
            library.fill(listed, job)
    library.redraw()
    return None if job.get("final") else FOLLOW_SECONDS


class ASSET_STUDIO_OT_send_selected(bpy.types.Operator):
    """Send the selected object to Asset Studio: as an animation upload (FBX with its armature) or for retopology"""

    bl_idname = "asset_studio.send_selected"
    bl_label = "Send to Asset Studio"
    bl_options = {"REGISTER"}

    target: EnumProperty(
        name="As",
        items=[
            ("ANIMATION", "Animation upload (FBX)", "Export the selection with its armature as FBX and upload it as a mesh to animate"),
            ("RETOPOLOGY", "Retopology (GLB)", "Retopologize the selected object's mesh (by the service's URL or asset id of its job, or a GLB URL)"),
        ],
        default="ANIMATION",
    )
    mesh_url: StringProperty(
        name="GLB URL",
        description=(
            "Retopology only: a GLB URL the service can download. Empty: the mesh of the job the selected object "
            "was imported from (the service takes a mesh by URL or asset id, not as a file)"
        ),
    )
    model: EnumProperty(name="Model", items=[("swift", "Swift", "Up to 8K faces"), ("precision", "Precision", "High face count, fine detail")], default="swift")
    quads: BoolProperty(name="Quads", description="Convert triangles to quads where possible", default=True)

    @classmethod
    def poll(cls, context):
        return bool(context.selected_objects)

    def invoke(self, context, event):
        return context.window_manager.invoke_props_dialog(self)

    def execute(self, context):
        objects = list(context.selected_objects)
        if not objects:
            self.report({"ERROR"}, "Select the object to send first.")
            return {"CANCELLED"}
        active = context.view_layer.objects.active if context.view_layer.objects.active in objects else objects[0]
        try:
            client = library.client(context)
            if self.target == "ANIMATION":
                name = bpy.path.clean_name(active.name) or "mesh"
                path = export_fbx(context, os.path.join(tempfile.mkdtemp(prefix="asset-studio-send-"), name + ".fbx"))
                try:
                    job = client.send_animation_mesh(path, label="%s (from Blender)" % active.name)
                finally:
                    os.remove(path)
                    os.rmdir(os.path.dirname(path))
            else:
                mesh = self.mesh_url.strip()
                if not mesh:
                    source = active.get("asset_studio_job")
                    if not source:
                        raise link.LinkError(
                            "%s was not imported from Asset Studio, and the service takes a retopology input by URL or asset id, "
                            "not as a file: export it as GLB, put it where the service can download it, and give its URL." % active.name
                        )
                    mesh = link.source_mesh(client.job(source))
                    if mesh is None:
                        raise link.LinkError("The job %s has no GLB or asset the service can retopologize: give a GLB URL." % source)
                job = client.send_retopology(mesh, self.model, self.quads, label="Retopology of %s (from Blender)" % active.name)
        except (link.LinkError, OSError) as error:
            return _fail(self, error)
        follow(context, job)
        self.report({"INFO"}, "Sent to Asset Studio: job %s (%s). The panel follows it." % (job.get("id"), job.get("label")))
        return {"FINISHED"}


CLASSES = (ASSET_STUDIO_OT_refresh, ASSET_STUDIO_OT_import_job, ASSET_STUDIO_OT_send_selected)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister():
    if bpy.app.timers.is_registered(_follow_tick):
        bpy.app.timers.unregister(_follow_tick)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
