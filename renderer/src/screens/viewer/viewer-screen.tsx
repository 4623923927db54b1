// The standalone viewer (#/viewer): open local files for offline review, by file input or by dropping them
// on the drop area. A model comes with the files beside it (an OBJ's .mtl and textures, a glTF's .bin):
// choose or drop them together. Or open a model of the download cache (every job's downloaded meshes),
// which works offline too.
import { useEffect, useState } from 'preact/hooks';
import type { CachedModel } from '../../../../shared/bridge/contract.ts';
import { getBridge } from '../../../bridge/index.ts';
import type { ModelFormat, ModelSource } from '../../../viewer/index.ts';
import { ModelViewer } from './model-viewer.tsx';

/** The cache's model files, kept fresh as outputs arrive. */
function useCachedModels(): CachedModel[] {
  const [models, setModels] = useState<CachedModel[]>([]);
  useEffect(() => {
    const bridge = getBridge();
    let current = true;
    const load = () =>
      void bridge.call('cache.models', {}).then(
        (r) => current && setModels(r.models),
        () => {}, // the list is a convenience: without it, files can still be opened
      );
    load();
    const off = bridge.on('cache.output', (o) => o.state === 'complete' && load());
    return () => {
      current = false;
      off();
    };
  }, []);
  return models;
}

function CacheOpener({ onOpen }: { onOpen: (model: CachedModel) => void }) {
  const models = useCachedModels();
  const [picked, setPicked] = useState('');
  if (models.length === 0) return null;
  const key = (m: CachedModel) => `${m.sessionId}\n${m.kind}`;
  return (
    <div class="viewer-cache">
      <label for="viewer-cached">Or open a downloaded model</label>
      <select
        id="viewer-cached"
        value={picked}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setPicked(value);
          const model = models.find((m) => key(m) === value);
          if (model) onOpen(model);
        }}
      >
        <option value="">Choose one of {models.length} in the cache…</option>
        {models.map((m) => (
          <option key={key(m)} value={key(m)}>
            {m.label} ({m.format.toUpperCase()})
          </option>
        ))}
      </select>
    </div>
  );
}

export function ViewerScreen() {
  const [source, setSource] = useState<ModelSource | undefined>();
  const [over, setOver] = useState(false);
  const open = (list: FileList | null | undefined) => {
    if (list && list.length > 0) setSource({ files: [...list] });
  };
  return (
    <>
      <h1>Viewer</h1>
      <section
        class={`viewer-drop${over ? ' over' : ''}`}
        aria-label="Open a model"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          open(e.dataTransfer?.files);
        }}
      >
        <label for="viewer-file">Open a model (GLB, glTF, OBJ, FBX or USDZ, with its MTL, BIN and texture files)</label>
        <input
          id="viewer-file"
          type="file"
          multiple
          accept=".glb,.gltf,.obj,.mtl,.fbx,.usdz,.usda,.bin,.png,.jpg,.jpeg,.webp,.tga,.bmp"
          onChange={(e) => open(e.currentTarget.files)}
        />
        <span class="muted">or drop the files here. Nothing leaves this computer.</span>
      </section>
      <CacheOpener
        onOpen={(m) => setSource({ url: m.url, format: m.format as ModelFormat, name: m.label, size: m.size })}
      />
      <ModelViewer source={source} label="the opened file" />
    </>
  );
}
