// Every benchmark, in the order `npm run bench` runs them; `npm run bench -- <name>` runs one.
import type { Scenario } from '../scenario.js';
import { customersAblationScenario } from './customers-ablation.js';
import { customersMinimalVariantsScenario, customersScenario } from './customers.js';
import { erpPullScenario } from './erp-pull.js';
import { invoicesReadScenario, invoicesReadVariantsScenario } from './invoices-read.js';
import { invoicesScenario } from './invoices.js';
import { dunningScenario } from './dunning.js';
import { lettersScenario } from './letters.js';
import { pushScenario } from './push.js';
import { webScenario } from './web.js';

export const scenarios: Scenario[] = [
  customersScenario,
  invoicesReadScenario,
  invoicesScenario,
  pushScenario,
  lettersScenario,
  dunningScenario,
  erpPullScenario,
  webScenario,
];

/** Run only when named: measuring instruments for finding out why, not figures to report. */
export const optInScenarios: Scenario[] = [customersAblationScenario, customersMinimalVariantsScenario, invoicesReadVariantsScenario];
