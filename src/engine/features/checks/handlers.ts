/** Channel checks: managed networks (check and browse), ad monetization, external monetization. */
import type { Handlers } from '../../context.js';
import { checkAdMonetization } from './ad-check.js';
import { checkManagedNetwork } from './cms-check.js';
import { externalMonetization } from './external-monetization.js';
import { browseNetworks } from './network-browse.js';

export const checkHandlers: Handlers = {
  'cms.check': checkManagedNetwork,
  'cms.networks': browseNetworks,
  'monetization.ads': checkAdMonetization,
  'monetization.external': externalMonetization,
};
