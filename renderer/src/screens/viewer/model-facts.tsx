// The viewer's facts about the open model: counts, the budget verdict against the chosen profile (budget.tsx),
// file size, textures with their GPU memory, size in metres.
import type { ModelStats, TextureInfo } from '../../../viewer/index.ts';
import { formatBytes } from '../../util.ts';
import { BudgetVerdict } from './budget.tsx';

/** The model file's size, and how many files (and bytes) came beside it. */
export interface FileBytes {
  model: number;
  others: number;
  othersBytes: number;
}

/** A texture's name as a file name: Babylon's `file:` prefix, folders and queries left out; data URIs "embedded". */
function textureName(name: string): string {
  if (name.startsWith('data:') || name.startsWith('blob:')) return 'embedded';
  return (
    name
      .replace(/^file:/, '')
      .split(/[?#]/)[0]!
      .split('/')
      .pop() || name
  );
}

/** A length in metres, with fewer decimals the larger it is. */
export const metres = (n: number) =>
  Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);
const count = (n: number) => n.toLocaleString('en');

/** `bytes`: when the file sizes are known; `textures`: once they have loaded. */
export function ModelFacts({
  name,
  stats,
  bytes,
  textures,
}: {
  name: string;
  stats: ModelStats;
  bytes: FileBytes | undefined;
  textures: TextureInfo[] | undefined;
}) {
  return (
    <dl class="facts viewer-stats" aria-label="Model statistics">
      <dt>File</dt>
      <dd>{name}</dd>
      <dt>Triangles</dt>
      <dd data-stat="triangles">{count(stats.triangles)}</dd>
      <BudgetVerdict stats={stats} textures={textures} />
      <dt>Vertices</dt>
      <dd data-stat="vertices">{count(stats.vertices)}</dd>
      <dt>Meshes</dt>
      <dd data-stat="meshes">{count(stats.meshes)}</dd>
      <dt>Materials</dt>
      <dd data-stat="materials">{count(stats.materials)}</dd>
      {bytes && (
        <>
          <dt>File size</dt>
          <dd data-stat="file-size">
            {formatBytes(bytes.model) +
              (bytes.others ? ` (+ ${bytes.others} beside it: ${formatBytes(bytes.othersBytes)})` : '')}
          </dd>
        </>
      )}
      <dt>Textures</dt>
      <dd data-stat="textures">{count(stats.textures)}</dd>
      {textures && textures.length > 0 && (
        <>
          <dt>Texture memory</dt>
          <dd data-stat="texture-memory">
            {formatBytes(textures.reduce((n, t) => n + t.gpuBytes, 0))} on the GPU
            <ul class="texture-list" aria-label="Textures">
              {textures.map((t, i) => (
                <li key={i} data-width={t.width} data-height={t.height}>
                  <span class="texture-name">{textureName(t.name)}</span> {t.width} × {t.height},{' '}
                  {formatBytes(t.gpuBytes)}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      <dt>Animations</dt>
      <dd data-stat="animations">{count(stats.animations)}</dd>
      <dt>Size (m)</dt>
      <dd data-stat="size">
        {metres(stats.size[0])} × {metres(stats.size[1])} × {metres(stats.size[2])}
      </dd>
      <dt>Min</dt>
      <dd>{stats.min.map(metres).join(', ')}</dd>
      <dt>Max</dt>
      <dd>{stats.max.map(metres).join(', ')}</dd>
    </dl>
  );
}
