/** Formats shared outside one corridor (the corridors' own formats are in corridors.ts). */
export const ACCOUNT_FORMATS = {
  cpf: /^\d{11}$/,
  cnpj: /^\d{14}$/,
  randomPixKey: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  iban: /^[A-Z]{2}\d{2}[A-Za-z0-9]{11,30}$/,
  routingNumber: /^\d{9}$/,
  clabe: /^\d{18}$/,
  currencyCode: /^[A-Z]{3,5}$/,
} as const;
