/**
 * `v-scroll-hint` on an `<el-table>` ("nothing shows that tables scroll sideways"): while the table is
 * wider than its box, its element carries `data-scroll` with `right` (more columns to the right) and/or `left`, and
 * styles.css draws a shade on that edge and the words 左右滑动 on it. Kept up to date on scroll, on resize of the
 * table and on changes of its rows.
 */
import type { Directive } from 'vue';

interface Watched {
  update(): void;
  stop(): void;
}
const watched = new WeakMap<HTMLElement, Watched>();

/** `left`, `right`, both or none: where the scrolling box `wrap` has more to show. */
export function scrollSides(wrap: { scrollLeft: number; clientWidth: number; scrollWidth: number }): string {
  const sides: string[] = [];
  if (wrap.scrollLeft > 1) sides.push('left');
  if (wrap.scrollLeft + wrap.clientWidth < wrap.scrollWidth - 1) sides.push('right');
  return sides.join(' ');
}

function watch(table: HTMLElement): Watched {
  let wrap: HTMLElement | null = null;
  let observedBody: HTMLElement | null = null;
  const update = () => {
    const next = table.querySelector<HTMLElement>('.el-table__body-wrapper .el-scrollbar__wrap');
    if (next !== wrap) {
      wrap?.removeEventListener('scroll', update);
      wrap = next;
      wrap?.addEventListener('scroll', update, { passive: true });
      if (wrap) resize.observe(wrap);
    }
    // The rows' table grows with its columns and content inside the scrolling box.
    const body = table.querySelector<HTMLElement>('.el-table__body');
    if (body && body !== observedBody) {
      observedBody = body;
      resize.observe(body);
    }
    const sides = wrap ? scrollSides(wrap) : '';
    if (sides) table.dataset.scroll = sides;
    else delete table.dataset.scroll;
  };
  const resize = new ResizeObserver(update);
  resize.observe(table);
  update();
  return {
    update,
    stop() {
      resize.disconnect();
      wrap?.removeEventListener('scroll', update);
    },
  };
}

export const scrollHint: Directive<HTMLElement> = {
  mounted(el) {
    watched.set(el, watch(el));
  },
  updated(el) {
    // Rows or columns changed: the table lays itself out on the next frame.
    requestAnimationFrame(() => watched.get(el)?.update());
  },
  unmounted(el) {
    watched.get(el)?.stop();
    watched.delete(el);
  },
};
