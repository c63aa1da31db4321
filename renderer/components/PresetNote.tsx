/** What the preset a draft came from says: its name, and what to fill in (its placeholders). */
export function PresetNote({
  source,
  testId,
}: {
  source: { name: string; description: string };
  testId: string;
}) {
  return (
    <section className="card preset-note" data-testid={testId}>
      <span className="kind kind--comparison">Preset</span>
      <h2>{source.name}</h2>
      {source.description && <p>{source.description}</p>}
    </section>
  );
}
