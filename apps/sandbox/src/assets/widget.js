/*
 * The sandbox's card widget. A page loads this script from the sandbox and calls
 *
 *   SandboxPay.pay(request, { onSuccess, onError, onClose })
 *
 * with the widget request (docs/payments.md, "The widget request"). The sandbox checks the request, then its own card
 * form opens in a frame over the page. The form, and the widget's own labels, are in the request's
 * `language` (pt-BR, en, ru or hi) or, without one, in the page's own (`<html lang>`).
 * The callbacks get one object each:
 *   onSuccess({ code: 'PAY_WIDGET:TRANSACTION_SUCCESS', paymentId, orderId })  after the widget has closed:
 *                                                                              its success message shows
 *                                                                              for 1.2 s, then the focus
 *                                                                              goes back to the page
 *   onError({ code: 'PAY_WIDGET:TRANSACTION_FAIL', reason, paymentId })        a declined attempt; the
 *                                                                              customer may try again
 *   onError({ code: 'PAY_WIDGET:INVALID_REQUEST', message, errors })            the request was refused
 *   onError({ code: 'PAY_WIDGET:NETWORK_ERROR', message })                      the sandbox was not reached
 *   onClose({ code: 'PAY_WIDGET:CLOSE_AFTER_FAIL' })                            closed after a failure
 *   onClose({ code: 'PAY_WIDGET:CLOSE_BEFORE_PAY' })                            closed before any answer
 * A close is reported 0.3 s after the widget has gone: a success its frame sent just before the close
 * is reported instead.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var base = script && script.src ? script.src.replace(/\/widget\.js(?:[?#].*)?$/, '') : '';
  var sandboxOrigin = base ? new URL(base).origin : '';
  var open = null;
  // How long a closed widget still listens for a success its frame sent just before the close.
  var CLOSE_GRACE_MS = 300;

  function noop() {}

  function pay(request, callbacks) {
    callbacks = callbacks || {};
    var onSuccess = callbacks.onSuccess || noop;
    var onError = callbacks.onError || noop;
    var onClose = callbacks.onClose || noop;
    if (open) open.close('PAY_WIDGET:CLOSE_BEFORE_PAY');

    return fetch(base + '/widget/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(withLanguage(request)),
      credentials: 'omit',
    }).then(
      function (response) {
        return response.json().then(function (body) {
          if (!response.ok) {
            onError({ code: 'PAY_WIDGET:INVALID_REQUEST', message: body.message, errors: body.errors || {} });
            return;
          }
          open = mount(body, onSuccess, onError, onClose);
        });
      },
      function (error) {
        onError({ code: 'PAY_WIDGET:NETWORK_ERROR', message: String(error && error.message) });
      },
    );
  }

  /**
   * The request as sent: a copy (the page's object stays as it is) with the page's language when the
   * request names none, so the frame opens in the language the shopper reads the store in.
   */
  function withLanguage(request) {
    var sent = {};
    var key;
    for (key in request) {
      if (Object.prototype.hasOwnProperty.call(request, key)) sent[key] = request[key];
    }
    var pageLanguage = document.documentElement.lang;
    if (!sent.language && pageLanguage) sent.language = pageLanguage;
    return sent;
  }

  /** A zero-size stop at an edge of the dialog: the focus reaching it wraps round to the other edge. */
  function focusGuard() {
    var guard = document.createElement('span');
    guard.tabIndex = 0;
    guard.setAttribute('data-focus-guard', '');
    guard.style.cssText = 'position:absolute;width:1px;height:1px;overflow:hidden;opacity:0;';
    return guard;
  }

  function mount(session, onSuccess, onError, onClose) {
    var sessionId = session.session_id;
    // The widget's own texts come with the session, in the frame's language.
    var texts = session.texts || {};
    var state = 'open';
    var success = null;
    var successTimer = null;
    var closingTimer = null;
    var previousFocus = document.activeElement;
    var overlay = document.createElement('div');
    overlay.setAttribute('data-sandbox-widget', '');
    overlay.style.cssText =
      'position:fixed;inset:0;z-index:2147483647;background:rgba(15,20,30,.6);display:flex;' +
      'align-items:center;justify-content:center;padding:8px;';
    var dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    if (session.language) dialog.setAttribute('lang', session.language);
    dialog.setAttribute('aria-label', texts.dialog || 'Card payment');
    dialog.style.cssText =
      'position:relative;width:100%;max-width:440px;height:min(640px,100%);background:#f4f5f7;' +
      'border-radius:12px;overflow:hidden;box-shadow:0 8px 32px rgba(0,0,0,.35);';
    var close = document.createElement('button');
    close.type = 'button';
    close.setAttribute('aria-label', texts.close || 'Close');
    close.textContent = '\u00d7';
    close.style.cssText =
      'position:absolute;top:6px;right:6px;z-index:1;width:40px;height:40px;border:0;border-radius:20px;' +
      'background:#e4e7ec;font-size:24px;line-height:40px;cursor:pointer;';
    // The page's own styles do not reach this button: its focus ring is drawn here.
    close.addEventListener('focus', function () {
      close.style.outline = close.matches(':focus-visible') ? '3px solid #2f6fde' : 'none';
      close.style.outlineOffset = '2px';
    });
    var frame = document.createElement('iframe');
    frame.src = session.frame_url;
    frame.title = texts.dialog || 'Card payment';
    frame.style.cssText = 'width:100%;height:100%;border:0;display:block;';
    // Tab order in the dialog: close, the frame's controls; past either edge the focus wraps round.
    var startGuard = focusGuard();
    var endGuard = focusGuard();
    dialog.appendChild(startGuard);
    dialog.appendChild(close);
    dialog.appendChild(frame);
    dialog.appendChild(endGuard);
    overlay.appendChild(dialog);
    // While the dialog is open, the page under it takes neither the focus nor a screen reader.
    var inerted = [];
    Array.prototype.forEach.call(document.body.children, function (element) {
      if (element.inert || element.tagName === 'SCRIPT') return;
      element.inert = true;
      inerted.push(element);
    });
    document.body.appendChild(overlay);
    // The frame's window, kept: a message it sent just before the frame was removed still names it.
    var frameWindow = frame.contentWindow;
    close.focus();

    /** Asks the page in the frame to focus its first (or first refused) control, or its last. */
    function focusInFrame(where) {
      frame.focus();
      if (frame.contentWindow) {
        frame.contentWindow.postMessage({ source: 'sandbox-widget-host', type: 'focus', where: where }, sandboxOrigin);
      }
    }

    function focusIsHere() {
      var active = document.activeElement;
      return !active || active === document.body || dialog.contains(active);
    }

    startGuard.addEventListener('focus', function () {
      focusInFrame('last');
    });
    endGuard.addEventListener('focus', function () {
      close.focus();
    });
    // Each page the frame loads (the form, a refused form, a 3-D Secure check, the result) gets the focus.
    frame.addEventListener('load', function () {
      if (state !== 'closed' && focusIsHere()) focusInFrame('first');
    });

    function teardown() {
      document.removeEventListener('keydown', onKey);
      inerted.forEach(function (element) {
        element.inert = false;
      });
      var hadFocus = focusIsHere();
      if (overlay.parentNode) overlay.parentNode.removeChild(overlay);
      // Back to what opened the widget, unless the page has since put the focus somewhere of its own.
      if (hadFocus && previousFocus && previousFocus.isConnected && previousFocus.focus) previousFocus.focus();
      open = null;
    }

    function closeWith(code) {
      if (state === 'closed' || state === 'closing') return;
      var after = state;
      if (successTimer) clearTimeout(successTimer);
      teardown();
      if (after === 'succeeded') {
        // A paid widget closed early (its close button, Escape) still reports the payment, once.
        state = 'closed';
        window.removeEventListener('message', onMessage);
        onSuccess(success);
        return;
      }
      // The frame may have paid a moment before the close and its message still be on the way: it is
      // heard for a little longer, and a success wins over the close.
      state = 'closing';
      closingTimer = setTimeout(function () {
        state = 'closed';
        window.removeEventListener('message', onMessage);
        onClose({ code: code || (after === 'failed' ? 'PAY_WIDGET:CLOSE_AFTER_FAIL' : 'PAY_WIDGET:CLOSE_BEFORE_PAY') });
      }, CLOSE_GRACE_MS);
    }

    function onMessage(event) {
      if (event.origin !== sandboxOrigin || event.source !== frameWindow) return;
      var data = event.data;
      if (!data || data.source !== 'sandbox-widget' || data.session !== sessionId || state === 'closed') return;
      if (state === 'closing') {
        if (data.type !== 'success') return;
        clearTimeout(closingTimer);
        state = 'closed';
        window.removeEventListener('message', onMessage);
        onSuccess({ code: 'PAY_WIDGET:TRANSACTION_SUCCESS', paymentId: data.paymentId, orderId: data.orderId });
        return;
      }
      if (data.type === 'success') {
        if (state === 'succeeded') return;
        state = 'succeeded';
        success = { code: 'PAY_WIDGET:TRANSACTION_SUCCESS', paymentId: data.paymentId, orderId: data.orderId };
        // The success message shows for a moment; the page hears of the payment only once the widget
        // has gone and the focus is back, so a dialog it opens then keeps the focus.
        successTimer = setTimeout(function () {
          closeWith();
        }, 1200);
      } else if (data.type === 'fail') {
        state = 'failed';
        onError({ code: 'PAY_WIDGET:TRANSACTION_FAIL', reason: data.reason, paymentId: data.paymentId });
      } else if (data.type === 'close') {
        closeWith();
      }
    }

    function onKey(event) {
      if (event.key === 'Escape') closeWith();
    }

    close.addEventListener('click', function () {
      closeWith();
    });
    window.addEventListener('message', onMessage);
    document.addEventListener('keydown', onKey);
    return { close: closeWith };
  }

  window.SandboxPay = { pay: pay };
})();
