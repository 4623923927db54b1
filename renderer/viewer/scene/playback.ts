// Animation playback: the loaded file's animation groups are its clips; the first is selected (paused on its
// first frame) when a model is added, and the render loop runs while one plays (state.playing).
import '@babylonjs/core/Animations/animatable.js';
import type { AnimationGroup } from '@babylonjs/core/Animations/animationGroup.js';
import type { Observer } from '@babylonjs/core/Misc/observable.js';
import type { ClipControls, Playback as PlaybackState } from '../types.ts';
import type { ViewerContext } from './context.ts';

export interface Playback extends ClipControls {
  /** A model was just added with these clips: the first selected, paused (listeners told either way). */
  attach(groups: AnimationGroup[]): void;
  /** The model leaves: its clips stop (listeners are not told: a new model or the viewer's end follows). */
  reset(): void;
  current(): PlaybackState | undefined;
  onChange(listener: (playback: PlaybackState | undefined) => void): () => void;
  dispose(): void;
}

/** Tells its listeners of every frame drawn while a clip plays (ctx.afterFrame). */
export function createPlayback({ state, wake, afterFrame }: ViewerContext): Playback {
  let groups: AnimationGroup[] = [];
  let active: AnimationGroup | undefined;
  let speed = 1;
  let loop = true;
  let endObserver: Observer<AnimationGroup> | null = null;
  let ended = false; // a clip that does not loop ran to its end (and stopped there)
  const listeners = new Set<(p: PlaybackState | undefined) => void>();

  function current(): PlaybackState | undefined {
    if (!active) return undefined;
    return {
      clip: groups.indexOf(active),
      name: active.name,
      playing: state.playing,
      frame: active.isStarted ? active.getCurrentFrame() : ended ? active.to : active.from,
      from: active.from,
      to: active.to,
      speed,
      loop,
    };
  }
  function notify() {
    const p = current();
    for (const l of listeners) l(p);
  }
  afterFrame(() => {
    if (state.playing) notify();
  });

  function selectClip(index: number, play = false) {
    const group = groups[index];
    if (!group) return;
    endObserver?.remove();
    for (const g of groups) g.stop();
    active = group;
    // A clip that does not loop stops on its last frame (play starts it again, a seek restarts it paused).
    ended = false;
    endObserver = group.onAnimationGroupEndObservable.add(() => {
      ended = true;
      state.playing = false;
      notify();
      wake();
    });
    group.start(loop, speed, group.from, group.to);
    state.playing = play;
    if (!play) {
      group.pause();
      group.goToFrame(group.from);
    }
    notify();
    wake();
  }

  /** The active clip started (paused unless playing), so that goToFrame has animatables to move. */
  function started(group: AnimationGroup): AnimationGroup {
    if (!group.isStarted) {
      ended = false;
      group.start(loop, speed, group.from, group.to);
      if (!state.playing) group.pause();
    }
    return group;
  }

  return {
    attach(next) {
      groups = next;
      if (groups.length > 0) selectClip(0);
      else notify();
    },
    reset() {
      endObserver?.remove();
      endObserver = null;
      for (const g of groups) g.stop();
      groups = [];
      active = undefined;
      state.playing = false;
    },
    clips: () => groups.map((g) => g.name),
    selectClip,
    play() {
      if (!active || state.playing) return;
      state.playing = true;
      if (active.isStarted) active.play(loop);
      else {
        ended = false;
        active.start(loop, speed, active.from, active.to);
      }
      notify();
      wake();
    },
    pause() {
      if (!active) return;
      active.pause();
      state.playing = false;
      notify();
      wake();
    },
    seek(frame) {
      if (!active) return;
      started(active).goToFrame(Math.min(active.to, Math.max(active.from, frame)));
      notify();
      wake();
    },
    setSpeed(ratio) {
      speed = Math.min(2, Math.max(0.25, ratio));
      for (const g of groups) g.speedRatio = speed;
      notify();
    },
    setLoop(on) {
      loop = on;
      if (active) active.loopAnimation = on;
      notify();
    },
    current,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => listeners.clear(),
  };
}
