// The one extension panel that may be open: opening, replacing, re-rendering and closing it from
// either side, forwarding keys, scrolling locally when the extension ignores pgup/pgdn, and
// announcing its size with `panel_resize` whenever that changes.
import type { ExtensionHost } from "../ext/types.ts";
import type { PanelContent } from "../protocol.ts";
import { toPanelKey, type Key } from "./keys.ts";
import { Panel } from "./panel.ts";
import type { StyleRef } from "./component.ts";

const SCROLL_GRACE_MS = 150;

export class PanelSlot {
  panel: Panel | null = null;
  private renders = 0;
  /**
   * Who closed the last panel from their side. The host closes a dead extension's panel just
   * before reporting the exit, so the exit still counts as closing that panel.
   */
  private closedBy: string | null = null;

  constructor(
    private readonly host: ExtensionHost,
    private readonly theme: StyleRef,
    private readonly changed: () => void,
  ) {}

  /** Opens a panel; a panel already open is closed and its owner told. */
  open(extension: string, content: PanelContent): void {
    const prev = this.panel;
    // The host routes panel frames by id alone and already points this id at the new owner, so
    // closing the old panel by the same id would reach the new owner and orphan its panel. That
    // covers the owner re-opening its own panel (a redraw) too.
    if (prev && prev.id !== content.id) this.host.panelClose(prev.id);
    this.panel = new Panel(this.theme, extension, content.id, content);
    this.closedBy = null;
  }

  /** `panel_render` from an extension; ignored unless it owns the open panel of that id. */
  render(extension: string, change: { panelId: string; title?: string | undefined; lines?: string[] | undefined; footer?: string | undefined }): void {
    if (!this.owns(extension, change.panelId)) return;
    this.panel!.update(change);
    this.renders++;
  }

  /** `panel_close` from an extension: closes without answering. */
  closedByExtension(extension: string, panelId: string): void {
    if (!this.owns(extension, panelId)) return;
    this.panel = null;
    // The exit report follows in the same tick when the host closed it for a dead extension;
    // after that, a later exit has nothing to do with this panel.
    this.closedBy = extension;
    queueMicrotask(() => {
      if (this.closedBy === extension) this.closedBy = null;
    });
  }

  /** The owner exited: true when that closed the open panel. */
  ownerExited(extension: string): boolean {
    if (this.closedBy === extension) {
      this.closedBy = null;
      return true;
    }
    if (!this.panel || this.panel.extension !== extension) return false;
    this.panel = null;
    return true;
  }

  /** A key while the panel has focus: ctrl+c closes it, and esc unless the panel takes it; the rest go to the owner. */
  key(key: Key, label: string): void {
    const panel = this.panel;
    if (!panel) return;
    if (label === "ctrl+c" || (label === "esc" && !panel.takesEsc)) {
      this.host.panelClose(panel.id);
      this.panel = null;
      this.closedBy = null;
      return;
    }
    const pk = toPanelKey(key);
    if (!pk) return;
    this.host.panelKey(panel.id, pk.key, pk.text);
    if (pk.key !== "pageup" && pk.key !== "pagedown") return;
    // Scroll locally only if the extension did not answer the key with a new frame.
    const seen = this.renders;
    const step = Math.max(1, panel.size.height - 1) * (pk.key === "pageup" ? -1 : 1);
    setTimeout(() => {
      if (this.panel !== panel || this.renders !== seen) return;
      panel.scrollBy(step);
      this.changed();
    }, SCROLL_GRACE_MS);
  }

  /** Sends `panel_resize` when the size the last frame gave the panel differs from the one announced. */
  announceSize(): void {
    const p = this.panel;
    if (!p) return;
    const a = p.announced;
    if (a && a.width === p.size.width && a.height === p.size.height) return;
    p.announced = { ...p.size };
    this.host.panelResize(p.id, p.size.width, p.size.height);
  }

  private owns(extension: string, panelId: string): boolean {
    return this.panel !== null && this.panel.id === panelId && this.panel.extension === extension;
  }
}
