/*
 * An emulated USB audio device for tests: an ALSA external (ioplug) plugin, capture (a
 * microphone) and playback (a speaker).
 *
 * It goes through the real ALSA PCM stack, so the product meets the same errors it meets with a
 * real microphone, which the stock plugins cannot produce:
 *   - a fixed format (S16_LE, `channels` channels, `rate_min`…`rate_max` Hz): unsupported formats;
 *   - `busy_file`: while that file exists, opening fails with EBUSY (another program has it);
 *   - `unplug_file`: once that file exists, the device is disconnected (ENODEV), as when the
 *     USB cable is pulled;
 *   - real-time pacing from CLOCK_MONOTONIC with a timerfd to poll, and real overruns
 *     (underruns) when the application falls more than a buffer behind (ahead of the device).
 * Capture delivers a 440 Hz sine at -12 dBFS peak, continuous across reads; playback discards.
 *
 * Built by the tests with: cc -shared -fPIC -DPIC -o libasound_module_pcm_usbaudio.so usbaudio.c -lasound -lm
 */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <math.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    snd_pcm_ioplug_t io;
    int timer;
    char *unplug_file;
    double started_at;
    snd_pcm_uframes_t delivered;   /* frames handed to the application */
    unsigned long long phase;      /* frames of sine generated so far */
} usbaudio_t;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int unplugged(usbaudio_t *device) {
    return device->unplug_file && access(device->unplug_file, F_OK) == 0;
}

/* The poll timer ticks once a period from `prepare` on, so that a prepared device is pollable
 * (a playback stream is written to before it starts). */
static int device_prepare(snd_pcm_ioplug_t *io) {
    usbaudio_t *device = io->private_data;
    if (unplugged(device)) return -ENODEV;
    struct itimerspec every = {0};
    double period = (double)io->period_size / io->rate;
    every.it_interval.tv_sec = every.it_value.tv_sec = (time_t)period;
    every.it_interval.tv_nsec = every.it_value.tv_nsec = (long)((period - (time_t)period) * 1e9);
    return timerfd_settime(device->timer, 0, &every, NULL) == 0 ? 0 : -errno;
}

static int device_start(snd_pcm_ioplug_t *io) {
    usbaudio_t *device = io->private_data;
    if (unplugged(device)) return -ENODEV;
    device->started_at = now();
    device->delivered = 0;
    return 0;
}

static int device_stop(snd_pcm_ioplug_t *io) {
    (void)io;
    return 0;
}

static snd_pcm_sframes_t device_pointer(snd_pcm_ioplug_t *io) {
    usbaudio_t *device = io->private_data;
    if (unplugged(device)) {
        /* The next read sees the disconnected state and fails with ENODEV, as with a real device. */
        snd_pcm_ioplug_set_state(io, SND_PCM_STATE_DISCONNECTED);
        return io->hw_ptr % io->buffer_size;
    }
    if (io->state != SND_PCM_STATE_RUNNING && io->state != SND_PCM_STATE_DRAINING) return io->hw_ptr % io->buffer_size;
    snd_pcm_uframes_t elapsed = (snd_pcm_uframes_t)((now() - device->started_at) * io->rate);
    if (io->stream == SND_PCM_STREAM_CAPTURE) {
        if (elapsed - io->appl_ptr > io->buffer_size) return -EPIPE;  /* the reader fell behind */
        return elapsed % io->buffer_size;
    }
    if (elapsed >= io->appl_ptr) {
        if (io->state == SND_PCM_STATE_DRAINING) return io->appl_ptr % io->buffer_size;  /* all played */
        return -EPIPE;  /* the writer fell behind: underrun */
    }
    return elapsed % io->buffer_size;
}

static snd_pcm_sframes_t device_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                      snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
    usbaudio_t *device = io->private_data;
    if (io->stream == SND_PCM_STREAM_PLAYBACK) return size;  /* a speaker: the sound is gone */
    for (snd_pcm_uframes_t frame = 0; frame < size; frame++) {
        double value = 0.25 * sin(2 * M_PI * 440.0 * (double)(device->phase++) / io->rate);
        short sample = (short)lrint(value * 32767);
        for (unsigned channel = 0; channel < io->channels; channel++) {
            const snd_pcm_channel_area_t *area = &areas[channel];
            char *address = (char *)area->addr + (area->first + (offset + frame) * area->step) / 8;
            *(short *)address = sample;
        }
    }
    device->delivered += size;
    return size;
}

static int device_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int nfds, unsigned short *revents) {
    usbaudio_t *device = io->private_data;
    unsigned long long expirations;
    (void)nfds;
    if (pfd[0].revents & POLLIN) (void)!read(device->timer, &expirations, sizeof expirations);
    if (unplugged(device)) { *revents = POLLERR; return 0; }
    snd_pcm_uframes_t elapsed = (snd_pcm_uframes_t)((now() - device->started_at) * io->rate);
    if (io->stream == SND_PCM_STREAM_CAPTURE) {
        *revents = io->state != SND_PCM_STATE_RUNNING || elapsed - io->appl_ptr >= io->period_size ? POLLIN : 0;
    } else {
        snd_pcm_uframes_t queued = io->appl_ptr > elapsed ? io->appl_ptr - elapsed : 0;
        int running = io->state == SND_PCM_STATE_RUNNING || io->state == SND_PCM_STATE_DRAINING;
        *revents = !running || io->buffer_size - queued >= io->period_size ? POLLOUT : 0;
    }
    return 0;
}

static int device_close(snd_pcm_ioplug_t *io) {
    usbaudio_t *device = io->private_data;
    close(device->timer);
    free(device->unplug_file);
    free(device);
    return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
    .start = device_start, .stop = device_stop, .prepare = device_prepare, .pointer = device_pointer, .transfer = device_transfer,
    .poll_revents = device_poll_revents, .close = device_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(usbaudio) {
    long channels = 1, rate_min = 44100, rate_max = 48000;
    const char *busy_file = NULL, *unplug_file = NULL;
    snd_config_iterator_t i, next;
    (void)root;
    snd_config_for_each(i, next, conf) {
        snd_config_t *entry = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(entry, &id) < 0) continue;
        if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
        if (!strcmp(id, "channels")) { snd_config_get_integer(entry, &channels); continue; }
        if (!strcmp(id, "rate_min")) { snd_config_get_integer(entry, &rate_min); continue; }
        if (!strcmp(id, "rate_max")) { snd_config_get_integer(entry, &rate_max); continue; }
        if (!strcmp(id, "busy_file")) { snd_config_get_string(entry, &busy_file); continue; }
        if (!strcmp(id, "unplug_file")) { snd_config_get_string(entry, &unplug_file); continue; }
        return -EINVAL;
    }
    if (busy_file && access(busy_file, F_OK) == 0) return -EBUSY;

    usbaudio_t *device = calloc(1, sizeof *device);
    if (!device) return -ENOMEM;
    device->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    device->unplug_file = unplug_file ? strdup(unplug_file) : NULL;
    device->io.version = SND_PCM_IOPLUG_VERSION;
    device->io.name = "Emulated USB audio device";
    device->io.callback = &callbacks;
    device->io.private_data = device;
    device->io.poll_fd = device->timer;
    device->io.poll_events = POLLIN;  /* a timerfd only becomes readable; poll_revents says which way */
    int err = snd_pcm_ioplug_create(&device->io, name, stream, mode);
    if (err < 0) { close(device->timer); free(device->unplug_file); free(device); return err; }

    static const unsigned int access_list[] = { SND_PCM_ACCESS_RW_INTERLEAVED };
    static const unsigned int format_list[] = { SND_PCM_FORMAT_S16_LE };
    if ((err = snd_pcm_ioplug_set_param_list(&device->io, SND_PCM_IOPLUG_HW_ACCESS, 1, access_list)) < 0 ||
        (err = snd_pcm_ioplug_set_param_list(&device->io, SND_PCM_IOPLUG_HW_FORMAT, 1, format_list)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&device->io, SND_PCM_IOPLUG_HW_CHANNELS, channels, channels)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&device->io, SND_PCM_IOPLUG_HW_RATE, rate_min, rate_max)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&device->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 64, 64 * 1024)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&device->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 1024)) < 0) {
        snd_pcm_ioplug_delete(&device->io);
        return err;
    }
    *pcmp = device->io.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(usbaudio);
