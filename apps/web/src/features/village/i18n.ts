/** Registers the village screens' strings when one of their chunks loads. */
import { i18n } from '../../platform/i18n';
import { villageEn, villageZh } from './strings';

i18n.addResourceBundle('zh', 'translation', { village: villageZh }, true, false);
i18n.addResourceBundle('en', 'translation', { village: villageEn }, true, false);
