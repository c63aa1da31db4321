/**
 * A file name made from any text (a run's, a preset's name): "nginx vs apache · c=100" ->
 * "nginx-vs-apache-c-100". Letters and digits only, joined by dashes, at most 80 characters,
 * never empty (fallback) and never a path.
 */
export function fileSlug(name: string, fallback = 'trebuchet'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-/, '')
    .slice(0, 80)
    .replace(/-$/, '')
    .toLowerCase();
  return slug || fallback;
}
