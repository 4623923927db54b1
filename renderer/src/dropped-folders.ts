// Folders dropped on the page in a browser, read through the drop's file system entries
// (DataTransferItem.webkitGetAsEntry: FileSystemDirectoryEntry, read a page at a time by readEntries): the
// files they hold, walked recursively as main walks the desktop app's dropped folders (main/app/batch.ts):
// in name order, hidden files and folders left out, and files that are not a picture, an FBX or a zip left
// out. At most MAX_FOLDER_FILES files are taken, so a drop of a whole disk neither hangs the page nor
// offers a batch no one meant.
import { droppedKind } from './dropped-kind.ts';

/** The most files taken from the folders of one drop. */
export const MAX_FOLDER_FILES = 1000;

export interface FolderFiles {
  files: File[];
  /** Files and folders left out: hidden, or not a picture, an FBX or a zip. */
  skipped: number;
  /** The folders held more files than the limit: the first `limit` were taken. */
  truncated: boolean;
  /** Folders or files that could not be read, by path. */
  unreadable: string[];
}

const readPage = (reader: FileSystemDirectoryReader) =>
  new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** Every entry of a folder (readEntries gives a page at a time, Chromium 100, until an empty one). */
async function entriesOf(folder: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = folder.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const page = await readPage(reader);
    if (page.length === 0) break;
    all.push(...page);
  }
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const isFolder = (entry: FileSystemEntry): entry is FileSystemDirectoryEntry => entry.isDirectory;
const isFile = (entry: FileSystemEntry): entry is FileSystemFileEntry => entry.isFile;

/** The files of these dropped folders, in order (folder by folder, names sorted), at most `limit`. */
export async function readDroppedFolders(
  folders: readonly FileSystemDirectoryEntry[],
  limit = MAX_FOLDER_FILES,
): Promise<FolderFiles> {
  const out: FolderFiles = { files: [], skipped: 0, truncated: false, unreadable: [] };
  const walk = async (folder: FileSystemDirectoryEntry): Promise<void> => {
    let entries: FileSystemEntry[];
    try {
      entries = await entriesOf(folder);
    } catch {
      out.unreadable.push(folder.fullPath);
      return;
    }
    for (const entry of entries) {
      if (out.truncated) return;
      if (entry.name.startsWith('.')) out.skipped++;
      else if (isFolder(entry)) await walk(entry);
      else if (!isFile(entry) || droppedKind(entry) === 'other') out.skipped++;
      else if (out.files.length >= limit) out.truncated = true;
      else
        await fileOf(entry).then(
          (file) => out.files.push(file),
          () => out.unreadable.push(entry.fullPath),
        );
    }
  };
  for (const folder of folders) await walk(folder);
  return out;
}
