/**
 * Images attached to the next prompt (`/image PATH`, `/paste`, Ctrl+V): shown as chips above the
 * composer and sent with the next prompt (`prompt.submit` `attachments`). The daemon reads and
 * checks the files; this list only holds paths. A subscribable store for `useSyncExternalStore`.
 */
import { unlink } from 'node:fs/promises';
import type { PromptAttachment } from '@hermes/core/protocol';

/** One pending image. `bytes` is the file's size when attached; `temp` files are ours to delete. */
export interface PendingImage {
  kind: 'image';
  /** Absolute path the daemon reads. */
  path: string;
  /** What the chip shows. */
  name: string;
  bytes: number;
  /** A file this TUI wrote (a clipboard image): deleted once sent or dropped. */
  temp?: boolean;
}

/** Most images one prompt may carry (the protocol's cap is 20 attachments in all). */
export const MAX_PENDING_IMAGES = 10;

/** The pending images of one TUI window. */
export class PendingAttachments {
  private items: readonly PendingImage[] = [];
  private readonly listeners = new Set<() => void>();

  /** The current list (a stable array until it changes). */
  readonly getSnapshot = (): readonly PendingImage[] => this.items;

  /** Subscribes to changes; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Number of pending images. */
  get size(): number {
    return this.items.length;
  }

  /**
   * Adds an image; the same path twice is attached once.
   * @returns false when `MAX_PENDING_IMAGES` are already attached.
   */
  add(img: PendingImage): boolean {
    if (this.items.some((i) => i.path === img.path)) return true;
    if (this.items.length >= MAX_PENDING_IMAGES) return false;
    this.set([...this.items, img]);
    return true;
  }

  /** Takes every pending image for a prompt (the list is empty after). */
  take(): PendingImage[] {
    const taken = [...this.items];
    if (taken.length) this.set([]);
    return taken;
  }

  /** Puts images back in front (a prompt that could not be sent). */
  restore(images: readonly PendingImage[]): void {
    if (images.length) this.set([...images, ...this.items.filter((i) => !images.includes(i))]);
  }

  /** Drops every pending image (and deletes our temporary files). @returns how many. */
  clear(): number {
    const dropped = this.take();
    void discard(dropped);
    return dropped.length;
  }

  private set(next: readonly PendingImage[]): void {
    this.items = next;
    for (const l of [...this.listeners]) l();
  }
}

/** The `prompt.submit` attachments of pending images. */
export function toPromptAttachments(images: readonly PendingImage[]): PromptAttachment[] {
  return images.map((i) => ({ kind: 'image', path: i.path, name: i.name }));
}

/** Deletes the temporary files among `images` (the daemon has its own copy once sent). */
export async function discard(images: readonly PendingImage[]): Promise<void> {
  await Promise.all(images.filter((i) => i.temp).map((i) => unlink(i.path).catch(() => undefined)));
}
