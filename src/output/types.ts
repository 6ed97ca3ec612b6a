// Shared types of the output layer (kept apart so writers do not import each other).

export type Format = 'table' | 'json' | 'ndjson' | 'csv' | 'tsv';

export const FORMATS: readonly Format[] = ['table', 'json', 'ndjson', 'csv', 'tsv'];

/** Contract: `table` when stdout is a terminal, `tsv` when it is not. */
export function defaultFormat(stdoutIsTTY: boolean): Format {
  return stdoutIsTTY ? 'table' : 'tsv';
}

/** A resource's view: the fields --fields may name, and the default columns per format. */
export interface ResourceView {
  /** Human name, singular ("action item"); used in error messages. */
  name: string;
  /** Every valid dotted leaf path. Empty for the raw view (then `open` is set). */
  fields: string[];
  /** Paths through an array of objects to a field of each element (`attendees.name`): --fields only. */
  elementFields?: string[];
  /** Default columns of the table format. */
  tableColumns: string[];
  /** Default columns of csv/tsv (default: `fields`). */
  flatColumns?: string[];
  /** Table columns printed dim when colors are on (secondary information). */
  dimColumns?: string[];
  /** Arrays of objects under these paths are shown by one key of each element (tags -> name). */
  arrayLabels?: Record<string, string>;
  /** No schema: any field is valid; columns come from the first item. */
  open?: boolean;
}

export interface WriterOptions {
  format: Format;
  /** Chosen and ordered fields (dotted paths, already validated by parseFields); all formats. */
  fields?: string[];
  /** csv/tsv: no formula-injection prefix. */
  rawCells?: boolean;
  /** csv/tsv: the output is a terminal, so server text is sanitized (files and pipes stay exact). */
  terminal?: boolean;
  /** csv only: start with U+FEFF. */
  bom?: boolean;
  /** table: colors allowed (decided once per run: io.color). */
  color: boolean;
  /** table: terminal columns to fit (default 80). */
  width?: number;
  /** table: the time dates are shown relative to ("3 days ago"; ms, default: now; io.now()). */
  now?: number;
  /**
   * Resuming an export (--checkpoint): this many items are already in the output, so no
   * preamble (json "[", csv header, BOM) is written and the first new item is a continuation.
   */
  continueAfter?: number;
}

export interface ItemWriter {
  /** Resolves once the stream accepts more (awaits 'drain'): constant memory except for table. */
  write(item: unknown): Promise<void>;
  /** One page in one write call. */
  writeMany(items: readonly unknown[]): Promise<void>;
  /** Finishes the document (json closes the array, "[]" for none; table renders). */
  end(): Promise<void>;
  /**
   * Interrupted or failed: finishes the document without waiting on a stalled consumer. A failure
   * before the first item writes nothing; `interrupted` (Ctrl-C, exit 130) writes what an empty
   * list does, so that the output is still one well-formed document.
   */
  abort(interrupted?: boolean): Promise<void>;
  /** Items written so far (excluding continueAfter). */
  readonly count: number;
}
