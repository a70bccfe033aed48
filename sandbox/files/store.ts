// The files a workspace holds: uploaded person and garment photos and rendered outputs, in memory
// (a sandbox forgets everything when it stops), and the file record the API answers for each.
import { newId } from '../api/ids.js';

export type FileKind = 'person' | 'garment' | 'output';

export interface StoredFile {
  id: string;
  workspace: string;
  kind: FileKind;
  contentType: string;
  bytes: Uint8Array;
  width?: number | undefined;
  height?: number | undefined;
  createdAt: string;
}

export function fileRecord(file: StoredFile) {
  return {
    id: file.id,
    object: 'file',
    kind: file.kind,
    content_type: file.contentType,
    size_bytes: file.bytes.byteLength,
    ...(file.width !== undefined && file.height !== undefined ? { width: file.width, height: file.height } : {}),
    created_at: file.createdAt,
  };
}

/** Uploaded photos and rendered outputs, each visible only to its own workspace. */
export class FileStore {
  readonly #files = new Map<string, StoredFile>();

  add(file: Omit<StoredFile, 'id' | 'createdAt'>): StoredFile {
    const stored: StoredFile = { ...file, id: newId('file'), createdAt: new Date().toISOString() };
    this.#files.set(stored.id, stored);
    return stored;
  }

  /** Forgets every file of `kind` (a service that restarted and lost its uploads); how many went. */
  forget(kind: FileKind): number {
    let count = 0;
    for (const [id, file] of this.#files) {
      if (file.kind !== kind) continue;
      this.#files.delete(id);
      count++;
    }
    return count;
  }

  get(workspace: string, id: string): StoredFile | undefined {
    const file = this.#files.get(id);
    return file && file.workspace === workspace ? file : undefined;
  }
}
