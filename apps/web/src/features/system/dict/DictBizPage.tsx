/** /system/dictbiz — the tenant's own dictionaries. */
import { DictManager } from './DictManager';

export default function DictBizPage() {
  return <DictManager kind="dictbiz" layout="dialog" />;
}
