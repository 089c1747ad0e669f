/**
 * Plain text tables: columns as wide as their widest cell, the last column cut to the terminal's
 * width (a pipe gets every character).
 */
export function table(
  header: readonly string[],
  rows: readonly string[][],
  width = Infinity,
): string[] {
  // A column nobody filled in (no tool has a title, say) is left out.
  const kept = header.map((_, column) => rows.some((row) => (row[column] ?? '') !== ''));
  if (kept.some((keep) => !keep)) {
    const keep = <T>(cells: readonly T[]) => cells.filter((_, column) => kept[column]);
    return table(keep(header), rows.map(keep), width);
  }
  const widths = header.map((title, column) =>
    Math.max(length(title), ...rows.map((row) => length(row[column] ?? ''))),
  );
  const line = (cells: readonly string[]) => {
    const text = cells
      .map((cell, column) => (column === cells.length - 1 ? cell : pad(cell, widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
    return `  ${cut(text, width - 2)}`;
  };
  return [line(header), ...rows.map(line)];
}

/** Cuts `text` to `width` characters, marking the cut with an ellipsis. */
export function cut(text: string, width: number): string {
  const characters = [...text];
  if (characters.length <= width) return text;
  return `${characters.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/**
 * `text` in lines of at most `width` characters, broken between words (and at its own line
 * breaks); the lines after the first start with `indent`. A pipe (width Infinity) gets the text's
 * own lines.
 */
export function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  for (const paragraph of text.trim().split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line !== '' && length(line) + 1 + length(word) > width) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines.map((line, index) => (index === 0 ? line : `${indent}${line}`));
}

/** The first line of a description, as one table cell. */
export function oneLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n')[0] ?? '';
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - length(text)));
}

function length(text: string): number {
  return [...text].length;
}
