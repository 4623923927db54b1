"""The add-on's preferences: where the app's data folder (its link, its database) is, and where downloads go."""

import bpy
from bpy.props import StringProperty

from . import folders, link


class AssetStudioPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    data_folder: StringProperty(
        name="Asset Studio data folder",
        description=(
            "The data folder of the running app (or its link.json). Empty: ASSET_STUDIO_DATA_DIR, "
            "else the platform's default data folder"
        ),
        subtype="DIR_PATH",
        default="",
    )
    download_folder: StringProperty(
        name="Download folder",
        description=(
            "Where imported models and thumbnails are copied from the app's cache. Empty: a private folder of yours "
            "under the temp folder (asset-studio-blender-<user id>, mode 700, checked before each use)"
        ),
        subtype="DIR_PATH",
        default="",
    )

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "data_folder")
        places = link.link_file_candidates(self.data_folder)
        box = layout.box()
        box.label(text="The add-on looks for the app's link file at:")
        for path, source in places:
            box.label(text="%s  (%s)" % (path, source))
        box.label(text="When the app is not running, finished jobs are read from that folder's database (import only).")
        layout.prop(self, "download_folder")
        if not self.download_folder:
            layout.label(text="Downloads go to %s" % folders.default_folder())


def register():
    bpy.utils.register_class(AssetStudioPreferences)


def unregister():
    bpy.utils.unregister_class(AssetStudioPreferences)
