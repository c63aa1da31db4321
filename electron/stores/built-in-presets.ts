import seed000 from '../../resources/presets/seed-000-vegeta-rate-http-https.json' with { type: 'json' };
import seed001 from '../../resources/presets/seed-001-ab-n50000-c500-8kb-image.json' with { type: 'json' };
import seed002 from '../../resources/presets/seed-002-ab-n30000-c30-x4.json' with { type: 'json' };
import seed003 from '../../resources/presets/seed-003-jmeter-threads-60s-slo300.json' with { type: 'json' };
import seed004 from '../../resources/presets/seed-004-3kb-c10-c100-c1000.json' with { type: 'json' };
import capacity from '../../resources/presets/capacity-p99-10ms-seed-servers.json' with { type: 'json' };
import { parsePresetFile, type Preset } from '../../shared/records/presets.ts';
import { describeIssues } from '../../shared/model/validation.ts';

/**
 * The presets shipped with the app, reproducing the seed articles' experiments (and asking
 * which of the seed servers holds the most). Imported
 * as JSON modules (not read from a directory at run time) so the compiler copies them
 * into the build and a packaged app finds them without extra resource paths.
 */
export const BUILT_IN_PRESET_FILES: readonly unknown[] = [
  seed000,
  seed001,
  seed002,
  seed003,
  seed004,
  capacity,
];

/** The built-in presets, validated; a broken one is a bug in the app, so it throws. */
export function builtInPresets(): Preset[] {
  return BUILT_IN_PRESET_FILES.map((file, i) => {
    const r = parsePresetFile(file, {
      newId: () => {
        throw new Error('built-in presets carry their own ids');
      },
    });
    if (!r.ok) throw new Error(`built-in preset ${i + 1} is invalid: ${describeIssues(r.issues)}`);
    return r.value;
  });
}
