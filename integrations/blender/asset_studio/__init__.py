"""Asset Studio for Blender: the running Asset Studio app's jobs inside Blender.

Talks to the app over its local link (``<data dir>/link.json``, see link.py): lists the library, imports
finished jobs (GLB with textures; an animated job with your prompts' clips by default, the library's when
asked; at the 3D cursor), and sends the selected object back as an animation upload or for retopology. When
the app is not running, finished jobs are read from its data folder (offline.py: import only). The service's
API key stays in the app.
"""

bl_info = {
    "name": "Asset Studio",
    "author": "Asset Studio contributors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "View3D > Sidebar (N) > Asset Studio",
    "description": "Import Asset Studio jobs (meshes, textures, animation clips) and send objects back for animation or retopology",
    "doc_url": "https://github.com/",
    "category": "Import-Export",
}

if "bpy" in locals():  # a reload (F3 > Reload Scripts): take the new code of every module
    import importlib

    for _module in (errors, jobs, folders, link, offline, library, preferences, operators, panel):  # noqa: F821
        importlib.reload(_module)
else:
    from . import errors, folders, jobs, link, offline

    try:
        import bpy
    except ImportError:  # link.py used on its own (tests, scripts) without Blender
        bpy = None
    if bpy is not None:
        from . import library, operators, panel, preferences

_MODULES = ("preferences", "library", "operators", "panel")


def register():
    for name in _MODULES:
        globals()[name].register()


def unregister():
    for name in reversed(_MODULES):
        globals()[name].unregister()
