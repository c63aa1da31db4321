import { useCallback, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { Preset } from '../../../shared/records/presets.ts';
import { useQuery } from '../../components/useQuery.ts';
import { errorText } from '../../lib/errors.ts';

/**
 * The first screen's way to the seed articles' experiments: the built-in presets, each a
 * button that opens it in its editor, where only the servers' host:port is left to change.
 */
export function SeedPresets({ api, onOpen }: { api: TrebuchetApi; onOpen: (preset: Preset) => void }) {
  const load = useCallback(() => api.presets.list(), [api]);
  const list = useQuery(load);
  const [error, setError] = useState<string | null>(null);
  const builtIn = (list.data?.presets ?? []).filter((p) => p.source === 'built-in');
  if (builtIn.length === 0) return null;
  return (
    <div className="seed-presets" data-testid="seed-presets">
      <h2 className="seed-presets__title">Reproduce an article: pick a preset, change only host:port</h2>
      <ul className="seed-presets__list">
        {builtIn.map((p) => (
          <li key={p.id}>
            <button
              type="button"
              className="link-btn"
              data-testid="seed-preset"
              data-preset-id={p.id}
              onClick={() => {
                api.presets.get({ id: p.id }).then(
                  ({ preset }) => onOpen(preset),
                  (e: unknown) => setError(errorText(e)),
                );
              }}
            >
              {p.name}
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
