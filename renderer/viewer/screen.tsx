// The standalone viewer (#/viewer): open local files for offline review, by file input or by dropping them
// on the drop area. A model comes with the files beside it (an OBJ's .mtl and textures, a glTF's .bin):
// choose or drop them together.
import { useState } from 'preact/hooks';
import type { ModelSource } from './types.ts';
import { ModelViewer } from './viewer.tsx';

export function ViewerScreen() {
  const [source, setSource] = useState<ModelSource | undefined>();
  const [over, setOver] = useState(false);
  const open = (list: FileList | null | undefined) => {
    if (list && list.length > 0) setSource({ files: [...list] });
  };
  return (
    <>
      <h1>Viewer</h1>
      <div
        class={`viewer-drop${over ? ' over' : ''}`}
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
        <label for="viewer-file">Open a model (GLB, glTF, OBJ or FBX, with its MTL, BIN and texture files)</label>
        <input
          id="viewer-file"
          type="file"
          multiple
          accept=".glb,.gltf,.obj,.mtl,.fbx,.bin,.png,.jpg,.jpeg,.webp,.tga,.bmp"
          onChange={(e) => open(e.currentTarget.files)}
        />
        <span class="muted">or drop the files here. Nothing leaves this computer.</span>
      </div>
      <ModelViewer source={source} label="the opened file" />
    </>
  );
}
