// The joint overlay of a mesh-animation session: `animation_joint_dict` drawn over its render image as 17
// labelled points joined as a body skeleton, so a user sees at a glance whether the rig fits. The SVG uses
// the image's natural size as its viewBox, so the points stay on the image at any displayed size. Hovering
// or focusing a joint reports it (the job page highlights the matching bones in the 3D view); each joint
// reacts within a circle of at least HIT_PX screen pixels across, whatever size the picture is shown at.
import { useEffect, useRef, useState } from 'preact/hooks';
import { BODY_PAIRS, jointPoints, type JointName } from '../../../../shared/joints.ts';

/** The diameter, in screen pixels, of the area in which a joint reacts to the pointer (a touch-size target). */
const HIT_PX = 24;

/** The displayed width of an element, followed as it changes. */
function useDisplayedWidth(ref: { current: Element | null }): number | undefined {
  const [width, setWidth] = useState<number | undefined>();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.getBoundingClientRect().width || undefined));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref.current]);
  return width;
}

export function JointOverlay({
  src,
  dict,
  highlighted,
  onHover,
}: {
  src: string;
  dict: Record<string, unknown> | undefined;
  highlighted?: JointName | undefined;
  onHover?: (joint: JointName | undefined) => void;
}) {
  const [size, setSize] = useState<{ w: number; h: number } | undefined>();
  const points = jointPoints(dict);
  const at = new Map(points.map((p) => [p.name, p]));
  const imgRef = useRef<HTMLImageElement>(null);
  const shownWidth = useDisplayedWidth(imgRef);
  const r = size ? Math.max(2, Math.min(size.w, size.h) / 110) : 4;
  // The hit circle's radius in the picture's own pixels: HIT_PX / 2 on the screen at the size it is shown
  // (and half a pixel more, so rounding never makes it smaller).
  const hitR = Math.max(r * 1.6, size && shownWidth ? ((HIT_PX / 2 + 0.5) * size.w) / shownWidth : r * 3);
  return (
    <figure class="joint-overlay" data-joints={points.length}>
      <div class="joint-stage">
        <img
          ref={imgRef}
          src={src}
          alt="The session's render of the rigged character"
          onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
        />
        {size && (
          // biome-ignore lint/a11y/useSemanticElements: an SVG cannot hold a fieldset; role="group" names the joints drawn in it
          <svg viewBox={`0 0 ${size.w} ${size.h}`} role="group" aria-label="Joints found on the render">
            {BODY_PAIRS.map(([a, b]) => {
              const p = at.get(a);
              const q = at.get(b);
              return p && q ? (
                <line
                  key={`${a}-${b}`}
                  class={highlighted === a || highlighted === b ? 'hot' : undefined}
                  x1={p.x}
                  y1={p.y}
                  x2={q.x}
                  y2={q.y}
                  stroke-width={r / 2}
                />
              ) : null;
            })}
            {points.map((p) => (
              // biome-ignore lint/a11y/noStaticElementInteractions: a joint only lights up (with its bones in the 3D view) while pointed at or focused, it has no action to name by a role; tabIndex lets the keyboard step through the joints and its <title> names it
              <g
                key={p.name}
                class={`joint${highlighted === p.name ? ' hot' : ''}`}
                data-joint={p.name}
                tabIndex={0}
                onMouseEnter={() => onHover?.(p.name)}
                onMouseLeave={() => onHover?.(undefined)}
                onFocus={() => onHover?.(p.name)}
                onBlur={() => onHover?.(undefined)}
              >
                <title>
                  {p.name} ({p.x}, {p.y})
                </title>
                <circle class="joint-hit" cx={p.x} cy={p.y} r={hitR} />
                <circle class="joint-dot" cx={p.x} cy={p.y} r={highlighted === p.name ? r * 1.6 : r} />
                <text x={p.x + r * 1.5} y={p.y - r * 0.8} font-size={r * 2.6}>
                  {p.name}
                </text>
              </g>
            ))}
          </svg>
        )}
      </div>
      <figcaption class="muted">
        {points.length} of 17 joints. Hover a joint to highlight its bones in the 3D view (turn on Skeleton there).
      </figcaption>
    </figure>
  );
}
