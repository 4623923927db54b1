"""The side panel (N-panel, tab "Asset Studio"): the library with thumbnails, kind, state and search; import;
send the selected object back; the job followed after a send."""

import bpy

from . import library, link

#: Jobs whose model is animated: the panel offers the choice of clips.
ANIMATED_KINDS = ("animation_session", "animation_prompt", "animation_upload")


class ASSET_STUDIO_UL_jobs(bpy.types.UIList):
    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0):
        icon_value = library.icon_of(item)
        row = layout.row(align=True)
        if icon_value:
            row.label(text=item.label, icon_value=icon_value)
        else:
            row.label(text=item.label, icon=library.kind_icon(item.kind))
        sub = row.row()
        sub.alignment = "RIGHT"
        sub.label(text=library.state_text(item), icon="ERROR" if item.state == "failed" else "NONE")


class VIEW3D_PT_asset_studio(bpy.types.Panel):
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "Asset Studio"
    bl_label = "Asset Studio"

    def draw(self, context):
        layout = self.layout
        wm = context.window_manager
        if wm.asset_studio_status:
            box = layout.box()
            for line in _wrap(wm.asset_studio_status, _chars_across(context)):
                box.label(text=line)
        row = layout.row(align=True)
        row.prop(wm, "asset_studio_search", text="", icon="VIEWZOOM")
        row.operator("asset_studio.refresh", text="", icon="FILE_REFRESH")
        layout.template_list("ASSET_STUDIO_UL_jobs", "", wm, "asset_studio_jobs", wm, "asset_studio_job_index", rows=6)
        if 0 <= wm.asset_studio_job_index < len(wm.asset_studio_jobs):
            item = wm.asset_studio_jobs[wm.asset_studio_job_index]
            box = layout.box()
            icon_value = library.icon_of(item)
            if icon_value:
                box.template_icon(icon_value=icon_value, scale=6.0)
            box.label(text=item.label)
            box.label(text="%s · %s" % (link.KIND_LABELS.get(item.kind, item.kind), library.state_text(item)))
            box.label(text=item.session or item.job_id)
            if item.error:
                box.label(text=item.error, icon="ERROR")
            col = box.column()
            col.enabled = item.state == "succeeded"
            if item.kind in ANIMATED_KINDS:
                col.prop(wm, "asset_studio_clips", expand=True)
            else:
                col.prop(wm, "asset_studio_pivot_bottom")
            op = col.operator("asset_studio.import_job", text="Import", icon="IMPORT")
            op.job = item.job_id
            op.clips = wm.asset_studio_clips
            op.pivot = "BOTTOM_CENTER" if wm.asset_studio_pivot_bottom else "AS_IS"

        layout.separator()
        layout.label(text="Send the selected object")
        row = layout.row(align=True)
        row.operator("asset_studio.send_selected", text="Animation", icon="ARMATURE_DATA").target = "ANIMATION"
        row.operator("asset_studio.send_selected", text="Retopology", icon="MOD_REMESH").target = "RETOPOLOGY"
        if len(wm.asset_studio_followed) > 0:
            item = wm.asset_studio_followed[0]
            box = layout.box()
            box.label(text="Sent: %s" % item.label, icon="EXPORT")
            box.label(text="%s · %s" % (link.KIND_LABELS.get(item.kind, item.kind), library.state_text(item)))
            if item.error:
                box.label(text=item.error, icon="ERROR")


def _chars_across(context):
    """About how many characters of label text fit across the sidebar."""
    scale = context.preferences.view.ui_scale * context.preferences.system.pixel_size
    return max(16, int(context.region.width / (7.0 * scale)) - 3)


def _wrap(text, width):
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = "%s %s" % (line, word) if line else word
    if line:
        lines.append(line)
    return lines


CLASSES = (ASSET_STUDIO_UL_jobs, VIEW3D_PT_asset_studio)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister():
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
