"""Where the add-on puts what it copies out of Asset Studio (models, thumbnails) when no download folder is
set: a folder of this user's own under the system's temp folder, never a shared one.

A fixed name under a temp folder every local user can write to is a trap: another user who makes it first
owns it, and can swap a model between its download and its import. So the folder's name carries the user id
(``asset-studio-blender-<uid>``), it is made with mode 0700, and before each use it must be a real folder (not a
link), owned by this user, that no one else can enter; anything else is refused with the reason, and never
repaired or deleted (it may be someone's). On Windows the temp folder is already the user's own
(``%LOCALAPPDATA%\\Temp``). Plain Python (no bpy): unit-tested without Blender.
"""

import os
import stat
import tempfile

from .errors import LinkError

FOLDER_PREFIX = "asset-studio-blender"


class UnsafeFolder(LinkError):
    """The private download folder is not private (another owner, open to others, a link)."""

    code = "unsafe-folder"


def default_folder(temp_dir=None):
    """This user's download folder under the temp folder (not made nor checked: see private_folder)."""
    temp_dir = temp_dir or tempfile.gettempdir()
    if not hasattr(os, "getuid"):  # Windows: the temp folder is per user
        return os.path.join(temp_dir, FOLDER_PREFIX)
    return os.path.join(temp_dir, "%s-%d" % (FOLDER_PREFIX, os.getuid()))


def private_folder(temp_dir=None):
    """The default download folder, made 0700 if it is missing; UnsafeFolder when it is not this user's alone."""
    path = default_folder(temp_dir)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    if hasattr(os, "getuid"):
        check_private(path)
    return path


def check_private(path):
    """UnsafeFolder unless ``path`` is a folder (not a link) owned by this user with no access for others."""
    info = os.lstat(path)
    fix = (
        "Remove it (it was not made by the add-on for you), or set a download folder of your own in the add-on's "
        "preferences (Edit > Preferences > Add-ons > Asset Studio)."
    )
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise UnsafeFolder("The add-on's download folder %s is not a folder but a link or a file. %s" % (path, fix))
    if info.st_uid != os.getuid():
        raise UnsafeFolder(
            "The add-on's download folder %s belongs to another user (uid %d): a model in it could be swapped. %s" % (path, info.st_uid, fix)
        )
    if info.st_mode & 0o077:
        raise UnsafeFolder(
            "The add-on's download folder %s is open to other users (mode %o, not 700): a model in it could be swapped. %s"
            % (path, stat.S_IMODE(info.st_mode), fix)
        )
    return path


def subfolder(base, *parts):
    """``base``/parts…, made 0700 where missing."""
    folder = os.path.join(base, *parts)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return folder
