// The FBX check in the animation upload form: the picked FBX in a small view, its mesh and bone counts,
// and a warning when it has no bones, is not a humanoid or does not stand like the reference pose; for a
// zip, whether an FBX in it is a rigged humanoid (see renderer/viewer/fbx-check.ts).
import { useEffect, useRef, useState } from 'preact/hooks';
import { createFbxChecker, type FbxCheck, type FbxChecker } from '../../../viewer/index.ts';

type State = { state: 'loading' } | { state: 'done'; check: FbxCheck } | { state: 'error'; message: string };

export function FbxCheckPanel({ file }: { file: File }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const checker = useRef<Promise<FbxChecker> | undefined>(undefined);
  const [state, setState] = useState<State>({ state: 'loading' });
  useEffect(
    () => () => {
      void checker.current?.then(
        (c) => c.dispose(),
        () => {},
      );
    },
    [],
  );
  useEffect(() => {
    let current = true;
    setState({ state: 'loading' });
    checker.current ??= createFbxChecker(canvasRef.current!);
    checker.current
      .then((c) => c.check(file))
      .then(
        (check) => current && setState({ state: 'done', check }),
        (e: unknown) => current && setState({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
      );
    return () => {
      current = false;
    };
  }, [file]);
  const check = state.state === 'done' ? state.check : undefined;
  return (
    <div class="fbx-check" data-state={state.state}>
      <canvas
        ref={canvasRef}
        class="fbx-check-canvas"
        aria-label={`3D view of ${file.name}`}
        hidden={/\.zip$/i.test(file.name)}
      />
      <div aria-live="polite">
        {state.state === 'loading' && <p class="muted">Checking {file.name}…</p>}
        {state.state === 'error' && (
          <p class="item-error">
            {file.name} could not be opened here: {state.message}
          </p>
        )}
        {check && (
          <>
            <p class="hint" data-fbx-counts>
              {check.stats
                ? `${check.stats.meshes} ${check.stats.meshes === 1 ? 'mesh' : 'meshes'}, ${check.bones} ${check.bones === 1 ? 'bone' : 'bones'}, ${check.stats.triangles.toLocaleString('en')} triangles`
                : `${check.bones} ${check.bones === 1 ? 'bone' : 'bones'} in its character`}
            </p>
            {check.warnings.length === 0 ? (
              <p class="fbx-ok">
                {check.stats
                  ? 'A humanoid skeleton; it stands up like the reference pose.'
                  : 'It holds a rigged humanoid character.'}
              </p>
            ) : (
              <ul class="fbx-warnings" role="alert">
                {check.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </div>
  );
}
