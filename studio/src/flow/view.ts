// Where the flow canvas looks: the first view of a flow and the view after an edit that moves nodes. A flow is
// read at a zoom where node labels keep (nearly) their normal size; a flow too wide for that opens at its start
// instead of shrinking to illegible cards, and `Fit View` (the canvas controls) shows everything on demand.
// See docs/decisions/studio-flow-first-view.md.

export interface Rect { x: number; y: number; width: number; height: number }
export interface Size { width: number; height: number }
export interface Viewport { x: number; y: number; zoom: number }

/** The canvas's zoom range: far enough out to see a large flow whole, far enough in to read a crowded one. */
export const MIN_ZOOM = 0.1;
export const MAX_ZOOM = 2;
/**
 * The lowest zoom the Studio chooses by itself: normal size, where every label on a card is at least 11 px. The
 * Studio never shrinks cards on its own; the person does, with `Fit View`, the zoom buttons or the wheel.
 */
export const READABLE_ZOOM = 1;
/** The zoom a flow opens at when it does not fit readably: node cards at their normal size. */
export const OPEN_ZOOM = 1;
/** Space kept between the flow and the canvas's edges, in screen pixels. */
const MARGIN = 40;

/** The zoom at which `bounds` fits the canvas with the margin (unbounded: the caller clamps it). */
function fitZoom(bounds: Rect, canvas: Size): number {
  const width = Math.max(canvas.width - 2 * MARGIN, 1);
  const height = Math.max(canvas.height - 2 * MARGIN, 1);
  return Math.min(width / Math.max(bounds.width, 1), height / Math.max(bounds.height, 1));
}

/** The view showing all of `bounds`, centred, if that is readable (never zoomed in past normal size); else undefined. */
export function readableFit(bounds: Rect, canvas: Size): Viewport | undefined {
  const zoom = Math.min(fitZoom(bounds, canvas), OPEN_ZOOM);
  if (zoom < READABLE_ZOOM) return undefined;
  return {
    x: canvas.width / 2 - (bounds.x + bounds.width / 2) * zoom,
    y: canvas.height / 2 - (bounds.y + bounds.height / 2) * zoom,
    zoom,
  };
}

/**
 * The first view of a flow: the whole flow when it fits readably; otherwise normal size with the start node
 * (`focus`) at the canvas's left edge and centred vertically, since flows run left to right from their start and
 * the space right of it shows the nodes that follow.
 */
export function firstView(bounds: Rect, focus: Rect, canvas: Size): Viewport {
  return readableFit(bounds, canvas) ?? {
    x: MARGIN - focus.x * OPEN_ZOOM,
    y: canvas.height / 2 - (focus.y + focus.height / 2) * OPEN_ZOOM,
    zoom: OPEN_ZOOM,
  };
}

/**
 * The view after a node was added: the whole flow when it fits readably; otherwise the current view moved just
 * enough to bring the new node (`focus`) on screen, so the node it follows mostly stays in sight. A view zoomed out
 * below readable is first brought back to normal size, centred on the new node.
 */
export function viewOnNode(current: Viewport, bounds: Rect, focus: Rect, canvas: Size): Viewport {
  const fit = readableFit(bounds, canvas);
  if (fit) return fit;
  if (current.zoom < READABLE_ZOOM) {
    return {
      x: canvas.width / 2 - (focus.x + focus.width / 2) * OPEN_ZOOM,
      y: canvas.height / 2 - (focus.y + focus.height / 2) * OPEN_ZOOM,
      zoom: OPEN_ZOOM,
    };
  }
  const { zoom } = current;
  /** How far to move along one axis so that [start, end] (screen pixels) lies within the canvas's margins. */
  const shift = (start: number, end: number, length: number): number => {
    if (end - start > length - 2 * MARGIN || start < MARGIN) return MARGIN - start;
    return end > length - MARGIN ? length - MARGIN - end : 0;
  };
  const left = focus.x * zoom + current.x;
  const top = focus.y * zoom + current.y;
  return {
    x: current.x + shift(left, left + focus.width * zoom, canvas.width),
    y: current.y + shift(top, top + focus.height * zoom, canvas.height),
    zoom,
  };
}
