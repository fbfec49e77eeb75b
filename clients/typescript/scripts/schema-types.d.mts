export function schemaTypes (document: object): Promise<string>
