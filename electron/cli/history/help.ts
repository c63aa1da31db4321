/** `trebuchet history`'s help. */
export const HISTORY_HELP = `Usage: trebuchet history list [--json] [--data-dir DIR]
       trebuchet history show ID [--format F] [--data-dir DIR]
       trebuchet history export ID [--json F] [--csv F] [--html F] [--export DIR] [--data-dir DIR]
       trebuchet history rm ID... [--data-dir DIR]

The run history of a data folder: the desktop app's, \`trebuchet serve\`'s and \`run --save\`'s
(default ~/.config/trebuchet-nodejs on Linux). A job its host never finished (killed,
crashed) is listed with status "interrupted": its finished parts whole, the part it was
running as a partial run, and when (opening the folder here saves any such job first).

  list                    every entry, newest first: id, kind, status, start, requests, name
      --json              one JSON row per entry: id, kind, name, status, statusText,
                          startedAt, savedAt, requests (of its finished parts), results
  show ID                 the entry's report, as \`trebuchet report\` prints it
      --format F          text (default), ab, vegeta, http_load, jmeter, json
  export ID               write the entry's files, as \`trebuchet report\` writes them
      --json F, --csv F, --html F, --export DIR, --keep-secrets
  rm ID...                delete entries
      --data-dir DIR      the data folder (default: the web host's and the CLI's)
  -h, --help              this help

Exit codes: 0 done; 2 bad input (no such entry, an unknown flag).
`;
