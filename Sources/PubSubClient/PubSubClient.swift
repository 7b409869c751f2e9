// PubSubClient
