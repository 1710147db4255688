import { any, obj, str } from '../../openapi/schemaHelpers.js';

/** The Template record (hosted TemplateModel): `icon`, `protocolId` and `protocol` only when set. */
export const templateSchema = obj(
  {
    id: str,
    name: str,
    icon: str,
    description: str,
    baseConfig: any,
    completionConfig: any,
    protocolId: str,
    protocol: { type: 'object' },
    action: str,
  },
  ['icon', 'protocolId', 'protocol'],
);
