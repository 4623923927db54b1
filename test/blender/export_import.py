"""Run inside headless Blender by test/blender/export-import.test.ts:

    blender -b --factory-startup --python test/blender/export_import.py -- <files.json> <facts.json>

<files.json> is a list of {"id": ..., "path": ...}: exported files (GLB, FBX, OBJ, USD/USDZ) and the sources
they were made from. Each is imported into an empty scene with Blender's own importers and their default
options (as a user does from File > Import), and what Blender makes of it is written to <facts.json> as
{"files": {id: facts}}: objects by type, bones, actions (clips), materials and whether an image texture feeds
their Base Color, and the world-space box of the meshes in metres (their rest pose: the mesh data without the
armature's deformation, so the clip that happens to be active does not change the box).
"""

import os
import sys

import bpy
from mathutils import Vector

sys.dont_write_bytecode = True  # no __pycache__ left in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # facts_run.py beside this script
from facts_run import run  # noqa: E402


def import_file(path):
    ext = os.path.splitext(path)[1].lower()
    if ext in (".glb", ".gltf"):
        return bpy.ops.import_scene.gltf(filepath=path)
    if ext == ".fbx":
        return bpy.ops.import_scene.fbx(filepath=path)
    if ext == ".obj":
        return bpy.ops.wm.obj_import(filepath=path)
    if ext in (".usd", ".usda", ".usdc", ".usdz"):
        return bpy.ops.wm.usd_import(filepath=path)
    raise ValueError(f"no importer for {ext}")


def base_color_image(material):
    """The image texture node that feeds the Principled BSDF's Base Color (through any nodes between), or None."""
    if material is None or not material.use_nodes or material.node_tree is None:
        return None
    for node in material.node_tree.nodes:
        if node.type != "BSDF_PRINCIPLED":
            continue
        socket = node.inputs.get("Base Color")
        seen = set()
        todo = [link.from_node for link in socket.links] if socket is not None else []
        while todo:
            upstream = todo.pop()
            if upstream.name in seen:
                continue
            seen.add(upstream.name)
            if upstream.type == "TEX_IMAGE" and upstream.image is not None:
                return upstream.image
            for entry in upstream.inputs:
                todo.extend(link.from_node for link in entry.links)
    return None


def image_facts(image):
    if image is None:
        return None
    path = image.filepath_raw or image.filepath or ""
    has_data = image.has_data or image.packed_file is not None
    if not has_data:
        try:
            image.reload()
            has_data = image.size[0] > 0
        except Exception:  # noqa: BLE001  (an image Blender cannot read: reported as no data)
            has_data = False
    return {"name": image.name, "file": os.path.basename(bpy.path.abspath(path)) if path else "", "size": list(image.size), "has_data": bool(has_data or image.size[0] > 0), "packed": image.packed_file is not None}


def describe():
    bpy.context.view_layer.update()
    objects = list(bpy.context.scene.objects)
    meshes = [o for o in objects if o.type == "MESH"]
    armatures = [o for o in objects if o.type == "ARMATURE"]
    types = {}
    for o in objects:
        types[o.type] = types.get(o.type, 0) + 1
    corners = [o.matrix_world @ v.co for o in meshes for v in o.data.vertices]
    bounds = None
    if corners:
        bounds = {"min": [min(c[i] for c in corners) for i in range(3)], "max": [max(c[i] for c in corners) for i in range(3)]}
    materials = []
    seen = set()
    for o in meshes:
        for slot in o.material_slots:
            m = slot.material
            if m is None or m.name in seen:
                continue
            seen.add(m.name)
            materials.append({"name": m.name, "base_color_image": image_facts(base_color_image(m))})
    return {
        "objects": types,
        "meshes": len(meshes),
        "mesh_objects_without_material": sum(1 for o in meshes if not any(s.material for s in o.material_slots)),
        "armatures": len(armatures),
        "bones": sum(len(a.data.bones) for a in armatures),
        "triangles": sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons),
        "actions": sorted(a.name for a in bpy.data.actions),
        "materials": materials,
        "images": sorted(os.path.basename(bpy.path.abspath(i.filepath_raw)) for i in bpy.data.images if i.filepath_raw),
        "bounds": bounds,
        "scene_unit_scale": bpy.context.scene.unit_settings.scale_length,
    }


def import_and_describe(path):
    result = import_file(path)
    fact = describe()
    fact["result"] = sorted(result)
    return fact


run(import_and_describe)
