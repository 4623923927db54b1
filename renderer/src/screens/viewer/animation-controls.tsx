// Animation playback for the model viewer: the clips of the open file, play/pause, a scrub bar bound to the
// current frame, speed (0.25–2×), loop, and the skeleton as lines, its rig helpers (bones that move no vertex:
// IK poles and targets) only when asked for. (A mesh-animation job's files are picked in ./animation-job.tsx.)
import { useEffect, useState } from 'preact/hooks';
import type { Playback, Viewer } from '../../../viewer/index.ts';
import { Checkbox, Select } from '../../components/choices.tsx';

const SPEEDS = [0.25, 0.5, 1, 1.5, 2];

export function AnimationControls({
  viewer,
  clipName,
}: {
  viewer: Viewer;
  clipName?: ((name: string, index: number) => string) | undefined;
}) {
  const [playback, setPlayback] = useState<Playback | undefined>(viewer.playback());
  const [skeleton, setSkeleton] = useState(false);
  const [helpers, setHelpers] = useState(false);
  useEffect(() => viewer.onPlayback(setPlayback), [viewer]);
  useEffect(() => viewer.showSkeleton(skeleton), [viewer, skeleton]);
  useEffect(() => viewer.showHelperBones(helpers), [viewer, helpers]);
  const clips = viewer.clips();
  const bones = viewer.skeletonBones();
  const helperBones = bones?.helpers ?? [];
  if (!playback || clips.length === 0) return null;
  return (
    <fieldset class="animation-controls" data-playing={String(playback.playing)}>
      <legend>Animation</legend>
      <label for="anim-clip">Clip</label>
      <Select
        id="anim-clip"
        value={String(playback.clip)}
        onChange={(v) => viewer.selectClip(Number(v), playback.playing)}
      >
        {clips.map((name, i) => (
          <option key={`${i}:${name}`} value={String(i)}>
            {clipName?.(name, i) || name || `Clip ${i + 1}`}
          </option>
        ))}
      </Select>
      <div class="viewer-controls">
        <button type="button" class="anim-play" onClick={() => (playback.playing ? viewer.pause() : viewer.play())}>
          {playback.playing ? 'Pause' : 'Play'}
        </button>
        <Checkbox class="anim-loop" checked={playback.loop} onChange={(on) => viewer.setLoop(on)}>
          Loop
        </Checkbox>
        <Checkbox class="anim-skeleton" checked={skeleton} onChange={setSkeleton}>
          Skeleton
        </Checkbox>
        {skeleton && helperBones.length > 0 && (
          <Checkbox
            class="anim-helper-bones"
            checked={helpers}
            onChange={setHelpers}
            title={`Bones that move no vertex (IK poles and targets, end bones): ${helperBones.join(', ')}`}
          >
            Helper bones ({helperBones.length})
          </Checkbox>
        )}
      </div>
      {skeleton && helperBones.length > 0 && !helpers && (
        <p class="hint anim-helper-hint">
          {helperBones.length} of {bones!.total} bones hidden: they move no vertex (IK poles and targets, end bones).
        </p>
      )}
      <label for="anim-frame">
        Frame <output class="anim-frame-value">{Math.round(playback.frame)}</output> of {Math.round(playback.to)}
      </label>
      <input
        id="anim-frame"
        class="anim-frame"
        type="range"
        min={playback.from}
        max={playback.to}
        step="any"
        value={playback.frame}
        onInput={(e) => {
          if (playback.playing) viewer.pause();
          viewer.seek(Number(e.currentTarget.value));
        }}
      />
      <label for="anim-speed">Speed</label>
      <Select id="anim-speed" value={String(playback.speed)} onChange={(v) => viewer.setSpeed(Number(v))}>
        {SPEEDS.map((s) => (
          <option key={s} value={String(s)}>
            {s}×
          </option>
        ))}
      </Select>
    </fieldset>
  );
}
