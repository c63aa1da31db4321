import { useState, type ReactNode } from 'react';

interface SectionProps {
  title: string;
  /** One line shown beside the title while folded ("HTTP/1.1 · keep-alive · 10 s timeout"). */
  summary?: string;
  defaultOpen?: boolean;
  /** Forces it open: a field inside has a message the person must see. */
  forceOpen?: boolean;
  testId?: string;
  children: ReactNode;
}

/** A foldable part of the editor; the first-run essentials start open, the rest folded. */
export function Section({
  title,
  summary,
  defaultOpen = true,
  forceOpen = false,
  testId,
  children,
}: SectionProps) {
  const [open, setOpen] = useState(defaultOpen);
  const shown = open || forceOpen;
  return (
    <section className={`section${shown ? ' is-open' : ''}`} data-testid={testId}>
      <button type="button" className="section__head" aria-expanded={shown} onClick={() => setOpen(!shown)}>
        <span className="section__chevron" aria-hidden="true" />
        <span className="section__title">{title}</span>
        {!shown && summary && <span className="section__summary">{summary}</span>}
      </button>
      {shown && <div className="section__body">{children}</div>}
    </section>
  );
}
