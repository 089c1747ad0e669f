/**
 * Plain text tables: columns as wide as their widest cell, the last column cut to the terminal's
 * width (a pipe gets every character).
 */
export function table(
  header: readonly string[],
  rows: readonly string[][],
  width = Infinity,
): string[] {
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
