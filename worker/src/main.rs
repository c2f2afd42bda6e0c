use domain::env::Env;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = worker::Config::from_env(&Env::from_os())?;
    domain::telemetry::init(&config.telemetry);
    worker::run(config, domain::shutdown_signal()).await
}
