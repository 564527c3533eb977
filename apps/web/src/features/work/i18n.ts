/** Registers 我的事务's strings (and the workflow lists' it builds on) when one of its chunks loads. */
import '../flow/i18n';
import { i18n } from '../../platform/i18n';
import { workEn, workZh } from './strings';

i18n.addResourceBundle('zh', 'translation', { work: workZh }, true, false);
i18n.addResourceBundle('en', 'translation', { work: workEn }, true, false);
