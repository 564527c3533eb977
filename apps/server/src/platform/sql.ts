/** A LIKE pattern that matches `text` literally anywhere: the user's % and _ are not wildcards. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
