{{/*
The labels every object of the chart carries: the part-of label the kustomize base sets, and
Helm's own (what the comparison with the overlays leaves aside).
*/}}
{{- define "paykit.labels" -}}
app.kubernetes.io/part-of: paykit
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Helm's labels alone, for the objects the overlays' components add (no part-of label there). */}}
{{- define "paykit.helmLabels" -}}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* `customers` -> `CUSTOMERS_DATABASE_URL`. */}}
{{- define "paykit.databaseUrlVariable" -}}
{{ . | upper | replace "-" "_" }}_DATABASE_URL
{{- end -}}

{{/* Whether the app (cards, webhooks) is autoscaled: its replica count is then the autoscaler's. */}}
{{- define "paykit.autoscaled" -}}
{{- if and (ne .root.Values.autoscaling.mode "none") (hasKey .root.Values.autoscaling .app) -}}true{{- end -}}
{{- end -}}
