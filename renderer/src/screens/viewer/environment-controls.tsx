// The viewer's Environment controls: which environment lights PBR materials (the studio, none, or a local
// .hdr/.env file) and whether it shows, blurred, as the background.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { EnvironmentChoice, Viewer } from '../../../viewer/index.ts';
import { Checkbox } from '../../components/choices.tsx';

const ENVIRONMENTS: readonly { kind: 'studio' | 'none'; label: string; title: string }[] = [
  {
    kind: 'studio',
    label: 'Studio',
    title: 'A neutral studio: soft grey surroundings and soft-box lights (built with the app, nothing downloaded)',
  },
  {
    kind: 'none',
    label: 'None',
    title: 'No environment: the two lights only (metals look dark without an environment)',
  },
];

/**
 * Which environment lights PBR materials (image-based lighting): the studio (default), none, or a local
 * .hdr/.env file; and whether it shows, blurred, as the background. A file that cannot be used shows why
 * and the environment in use stays. Applied to the viewer once it exists (it starts with the studio).
 */
export function EnvironmentControls({ viewer }: { viewer: Viewer | undefined }) {
  const id = useId();
  const [active, setActive] = useState<EnvironmentChoice>({ kind: 'studio' });
  const [reading, setReading] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [background, setBackground] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const request = useRef(0);

  const apply = (choice: EnvironmentChoice, name: string) => {
    const mine = ++request.current;
    setError(undefined);
    if (!viewer) return setActive(choice);
    setReading(name);
    viewer
      .setEnvironment(choice)
      .then(
        () => mine === request.current && setActive(choice),
        (e: unknown) => mine === request.current && setError(e instanceof Error ? e.message : String(e)),
      )
      .finally(() => mine === request.current && setReading(undefined));
  };
  // The viewer starts with the studio: bring it to a choice made before it existed.
  useEffect(() => {
    if (viewer && active.kind !== 'studio') apply(active, active.kind === 'file' ? active.file.name : 'None');
  }, [viewer]);
  useEffect(() => viewer?.showEnvironmentBackground(background), [viewer, background]);

  const pick = (files: FileList | null) => {
    const file = files?.[0];
    if (file) apply({ kind: 'file', file }, file.name);
    if (fileRef.current) fileRef.current.value = ''; // the same file can be picked again
  };
  return (
    <fieldset
      class="viewer-environment"
      data-environment={active.kind}
      data-reading={reading ? 'true' : undefined}
      aria-describedby={`${id}-status`}
    >
      <legend>Environment</legend>
      <fieldset class="viewer-controls" aria-label="Environment lighting">
        {ENVIRONMENTS.map((e) => (
          <button
            key={e.kind}
            type="button"
            data-environment={e.kind}
            aria-pressed={active.kind === e.kind}
            title={e.title}
            onClick={() => apply({ kind: e.kind }, e.label)}
          >
            {e.label}
          </button>
        ))}
        <button
          type="button"
          data-environment="file"
          aria-pressed={active.kind === 'file'}
          title="Light the model with your own environment: a Radiance .hdr panorama or a Babylon .env file (read here, nothing is uploaded)"
          onClick={() => fileRef.current?.click()}
        >
          Open .hdr/.env file…
        </button>
        <input
          ref={fileRef}
          id={`${id}-file`}
          class="visually-hidden viewer-environment-file"
          type="file"
          accept=".hdr,.env"
          tabIndex={-1}
          aria-label="Environment file (.hdr or .env)"
          onChange={(e) => pick(e.currentTarget.files)}
        />
      </fieldset>
      <Checkbox
        labelClass="viewer-environment-background"
        checked={background}
        disabled={active.kind === 'none'}
        onChange={setBackground}
      >
        Show as background (blurred)
      </Checkbox>
      <p id={`${id}-status`} class="hint" aria-live="polite">
        {reading
          ? `Reading ${reading}…`
          : active.kind === 'file'
            ? `In use: ${active.file.name}`
            : active.kind === 'studio'
              ? 'In use: the neutral studio'
              : 'In use: the lights only'}
      </p>
      {error && (
        <p class="item-error viewer-environment-error" role="alert">
          {error} The previous environment is still in use.
        </p>
      )}
    </fieldset>
  );
}
