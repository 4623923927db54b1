// The named views of a 3D view (shared/views.ts): Front, Side, Back and Top buttons, and their keys (F, S, B,
// T, shown in each button's title). A key works while the focus is in this viewer, or outside every viewer
// and every text field (on the page itself): compare's two viewers then both turn, as their cameras are linked.
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { VIEW_BUTTONS, type ViewName } from '../../../../shared/views.ts';

/** Where a typed letter belongs to the field, not to the view. */
const TYPING =
  'textarea, select, [contenteditable]:not([contenteditable="false"]), input:not([type=checkbox]):not([type=radio]):not([type=range]):not([type=button]):not([type=file]):not([type=submit])';

export function ViewButtons({
  enabled,
  root,
  onView,
}: {
  /** A model is shown. */
  enabled: boolean;
  /** The viewer's element (keys typed in another viewer are that one's). */
  root: RefObject<HTMLElement | null>;
  onView: (view: ViewName) => void;
}) {
  const latest = useRef(onView);
  latest.current = onView;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest(TYPING)) return;
      const inside = target?.closest('.viewer');
      if (inside && inside !== root.current) return;
      const button = VIEW_BUTTONS.find((b) => b.key.toLowerCase() === e.key.toLowerCase());
      if (!button) return;
      e.preventDefault();
      latest.current(button.view);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
  return (
    <fieldset class="viewer-controls viewer-views" aria-label="Camera">
      {VIEW_BUTTONS.map((b) => (
        <button
          key={b.view}
          type="button"
          data-view={b.view}
          disabled={!enabled}
          title={`${b.title} (key ${b.key})`}
          aria-keyshortcuts={b.key}
          onClick={() => onView(b.view)}
        >
          {b.label}
        </button>
      ))}
    </fieldset>
  );
}
