// FBX recognition: binary FBX (magic + version number) and ASCII FBX (`; FBX 7.5.0 project file`).
import { damaged, InspectionError, wrongFormat } from './errors.ts';
import type { FileLimits } from './limits.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { FBX_BINARY_MAGIC, isAsciiFbxStart, isBinaryFbxStart } from '../../shared/file-signature.ts';
import { describeContent, sniff, textStart } from './sniff.ts';
import { readAt, type OpenedFile } from './source.ts';

export interface FbxInfo {
  format: 'binary' | 'ascii';
  /** e.g. `7.4`; null when an ASCII file does not say. */
  version: string | null;
}

/** Bytes needed to read the format and version of a binary FBX: the magic and a uint32. */
const FBX_HEAD_BYTES = FBX_BINARY_MAGIC.length + 4;
/** Every binary FBX (FBX SDK, Blender, …) ends with this marker. */
const BINARY_FOOTER = Buffer.from('f85a8c6adef5d97eece90ce3758f290b', 'hex');

const AGAIN = 'Copy it again or export it again from your 3D tool.';

/** Format and version from the first bytes; `truncated` when a binary header is cut off; undefined when not an FBX. */
export function readFbxHead(head: Buffer): FbxInfo | 'truncated' | undefined {
  if (isBinaryFbxStart(head)) {
    if (head.length < FBX_HEAD_BYTES) return 'truncated';
    return { format: 'binary', version: versionName(head.readUInt32LE(FBX_BINARY_MAGIC.length)) };
  }
  if (!isAsciiFbxStart(head)) return undefined;
  const text = textStart(head);
  const declared = /^\s*FBXVersion:\s*(\d+)/m.exec(text);
  if (declared) return { format: 'ascii', version: versionName(Number(declared[1])) };
  const comment = /^; FBX (\d+)\.(\d+)/.exec(text);
  return { format: 'ascii', version: comment ? `${comment[1]}.${comment[2]}` : null };
}

/** 7400 → `7.4`. */
function versionName(n: number): string {
  return `${Math.floor(n / 1000)}.${Math.floor((n % 1000) / 100)}`;
}

export async function inspectFbx(file: OpenedFile, limits: FileLimits): Promise<FbxInfo> {
  if (file.size > limits.maxFbxBytes) {
    throw new InspectionError({
      code: 'too-large',
      file: file.path,
      reason: `is ${formatBytes(file.size)}, more than the ${formatBytes(limits.maxFbxBytes)} allowed for an FBX file`,
      action: 'Reduce the mesh (fewer polygons, no embedded media) and export it again.',
    });
  }
  const info = readFbxHead(file.head);
  if (info === undefined) throw wrongFormat(file.path, 'fbx', describeContent(sniff(file.head)));
  if (info === 'truncated') throw damaged(file.path, 'its binary FBX header is incomplete', AGAIN);
  if (info.format === 'binary') {
    const footer = await readAt(file.handle, Math.max(0, file.size - BINARY_FOOTER.length), BINARY_FOOTER.length);
    if (!footer.equals(BINARY_FOOTER)) throw damaged(file.path, 'it does not end like a binary FBX file', AGAIN);
  }
  return info;
}
