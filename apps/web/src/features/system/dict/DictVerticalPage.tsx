/** /dict-vertical/index — dictionaries above, entries below. */
import { DictManager } from './DictManager';

export default function DictVerticalPage() {
  return <DictManager kind="dict" layout="vertical" />;
}
